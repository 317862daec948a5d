/* What the guest does once, at boot, before the template snapshot: everything a launch would otherwise repeat. */
#ifndef AASM_GUEST_BOOT_H
#define AASM_GUEST_BOOT_H

#include <stddef.h>

struct boot_facts {
    long landlock_abi;     /* -1: none */
    int cgroup;            /* the tree's cgroup exists with the memory and pids controllers */
    long init_ms, modules_ms, port_ms;
    char kernel[128];
    char problems[512];    /* what did not work, for the hello frame */
};

/* Mounts /dev, /proc, /sys and cgroup2, loads the modules listed in /modules/order, brings lo up. */
void boot_system(struct boot_facts *f);
/* Opens the virtio-serial port named "ctl" (waits for it up to 10 s); -1 when there is none. */
int boot_open_port(struct boot_facts *f);
long boot_now_ms(void);

/* Where the tree's cgroup lives (joined by the program before exec). */
#define TREE_CGROUP "/sys/fs/cgroup/aasm-tree"

#endif
