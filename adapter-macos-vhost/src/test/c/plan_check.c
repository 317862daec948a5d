/*
 * Test harness (PlanDecodeTest): decodes one plan frame payload from stdin with the guest agent's own plan.c,
 * compiles its seccomp programs with filter.c (this host's libseccomp.a, as the agent links it) and prints what it
 * holds of the canaries, shares and programs, or the refusal. Never part of the agent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "filter.h"
#include "plan.h"

int main(void) {
    static unsigned char in[1 << 20];
    size_t len = 0;
    for (ssize_t r; (r = read(0, in + len, sizeof in - len)) > 0;) len += (size_t)r;
    static struct plan p;
    char err[256];
    if (plan_decode(in, len, &p, err, sizeof err) < 0 || filter_compile(&p, err, sizeof err) < 0) {
        printf("refused %s\n", err);
        return 0;
    }
    printf("ok mask=%u nonce=%s", p.canaries, p.canary_nonce);
    if (p.have_canary_syscall) printf(" syscall=%s/%u", p.canary_syscall_name, p.canary_syscall);
    if (p.have_canary_rlimit) printf(" rlimit=%u/%llu", p.canary_rl_resource, (unsigned long long)p.canary_rl_hard);
    if (p.have_canary_names) printf(" names=%08x:%u", p.canary_ns_addr, p.canary_ns_port);
    for (int i = 0; i < p.nseccomp; i++) printf(" bpf%d=%zu", i, p.bpf[i].n / 8);
    if (p.nseccomp) printf(" skipped=%d", p.seccomp_skipped);
    for (int i = 0; i < p.nshares; i++)
        printf(" share=%d/%s/%d/%s", p.share_slot[i], p.share_ro[i] ? "ro" : "rw", p.share_transport[i], p.share_tag[i]);
    printf("\n");
    return 0;
}
