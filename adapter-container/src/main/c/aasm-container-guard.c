/*
 * aasm-container-guard: the lifeline of one container launch (GUARD.md).
 *
 *     aasm-container-guard <engine socket> <api prefix> <container id>
 *
 * Standard input is a pipe whose write end only the supervisor holds. The supervisor writes "done\n"
 * once it has removed the container itself; end of file without it means the supervisor is gone (killed,
 * crashed, however), and the guard then asks the engine to remove the container by force, which kills
 * every process in it. A JVM cannot do this for itself: nothing of it runs after SIGKILL.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define ATTEMPTS 20

static int valid_id(const char *id) {
    size_t n = strlen(id);
    if (n < 12 || n > 64) return 0;
    for (size_t i = 0; i < n; i++) {
        if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f'))) return 0;
    }
    return 1;
}

/* Empty, or /v<digits>.<digits>: the versioned path prefix the supervisor negotiated with the engine. */
static int valid_prefix(const char *p) {
    if (!*p) return 1;
    if (p[0] != '/' || p[1] != 'v') return 0;
    int dots = 0, digits = 0;
    for (const char *c = p + 2; *c; c++) {
        if (*c == '.') dots++;
        else if (*c >= '0' && *c <= '9') digits++;
        else return 0;
    }
    return dots == 1 && digits >= 2 && strlen(p) < 16;
}

static void say(const char *line) {
    ssize_t ignored = write(1, line, strlen(line));
    (void) ignored;
}

/* One HTTP/1.0 request without a body; returns the status code, or -1 when the engine was not reached. */
static int request(const char *socket_path, const char *method, const char *path) {
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return -1;
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    strncpy(a.sun_path, socket_path, sizeof a.sun_path - 1);
    if (connect(s, (struct sockaddr *) &a, sizeof a) < 0) {
        close(s);
        return -1;
    }
    char req[512];
    int n = snprintf(req, sizeof req, "%s %s HTTP/1.0\r\nHost: docker\r\nContent-Length: 0\r\n\r\n", method, path);
    if (n <= 0 || n >= (int) sizeof req || write(s, req, (size_t) n) != n) {
        close(s);
        return -1;
    }
    char head[64] = {0};
    size_t got = 0;
    while (got < sizeof head - 1) {
        ssize_t r = read(s, head + got, sizeof head - 1 - got);
        if (r <= 0) break;
        got += (size_t) r;
    }
    close(s);
    int code;
    return sscanf(head, "HTTP/%*d.%*d %d", &code) == 1 ? code : -1;
}

static void pause_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) < 0 && errno == EINTR) {
    }
}

/* Removes the container by force (its processes die with it); 404 means it is gone already. */
static int reclaim(const char *socket_path, const char *prefix, const char *id) {
    char path[256];
    snprintf(path, sizeof path, "%s/containers/%s?force=1&v=1", prefix, id);
    int code = -1;
    for (int i = 0; i < ATTEMPTS; i++) {
        code = request(socket_path, "DELETE", path);
        if (code == 204 || code == 200 || code == 404) break;
        pause_ms(250);
    }
    char line[64];
    snprintf(line, sizeof line, "reclaimed:%d\n", code);
    say(line);
    return code == 204 || code == 200 || code == 404 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc != 4 || argv[1][0] != '/' || strlen(argv[1]) >= sizeof(((struct sockaddr_un *) 0)->sun_path)
            || !valid_prefix(argv[2]) || !valid_id(argv[3])) {
        fprintf(stderr, "usage: aasm-container-guard <engine socket> <api prefix> <container id>\n");
        return 2;
    }
    /* A session of its own: the caller's terminal signals (Ctrl-C, hangup) never end the guard. */
    setsid();
    prctl(PR_SET_DUMPABLE, 0);
    int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) signal(ignored[i], SIG_IGN);
    for (int fd = 3; fd < 1024; fd++) close(fd);
    say("ready\n");
    char buf[64];
    size_t have = 0;
    for (;;) {
        ssize_t r = read(0, buf + have, sizeof buf - 1 - have);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        have += (size_t) r;
        buf[have] = 0;
        if (strstr(buf, "done\n")) return 0;
        if (have >= sizeof buf - 1) have = 0;
    }
    return reclaim(argv[1], argv[2], argv[3]);
}
