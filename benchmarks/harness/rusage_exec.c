/* rusage-exec OUT PROGRAM ARGS...: runs PROGRAM, waits for it with wait4 and writes its tree's ru_maxrss (KiB) to OUT.
 * Why: a child forked from the Python harness starts with the harness's resident set, and Linux keeps that peak in
 * ru_maxrss across exec, so P6 would have a ~15 MiB floor. Forked from this tiny process, the floor is ~1 MiB. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: rusage-exec OUT PROGRAM [ARGS...]\n");
        return 125;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("rusage-exec: fork");
        return 125;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("rusage-exec: exec");
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("rusage-exec: wait4");
        return 125;
    }
    FILE *out = fopen(argv[1], "w");
    if (out == NULL) {
        perror("rusage-exec: output");
        return 125;
    }
    fprintf(out, "%ld\n", ru.ru_maxrss);
    fclose(out);
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 125;
}
