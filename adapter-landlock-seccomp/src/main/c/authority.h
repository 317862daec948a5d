/* What the program holds (authority.c, PROTOCOL.md DROP_CAPS and the authority line). */
#ifndef AASM_AUTHORITY_H
#define AASM_AUTHORITY_H

/* Clears every capability set (effective, permitted, inheritable, ambient, bounding) and locks the root
 * securebits so that no later execve can give any back; refuses on any failure. */
void drop_capabilities(void);

/* Formats "CapInh=...;CapPrm=...;CapEff=...;CapBnd=...;CapAmb=...;NoNewPrivs=...;Seccomp=...;Seccomp_filters=..."
 * from <proc_fd>/<pid>/status into out; returns 0, or -1 when the status could not be read. */
int read_authority(int proc_fd, int pid, char *out, size_t cap);

#endif
