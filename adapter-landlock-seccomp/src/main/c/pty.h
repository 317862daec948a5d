/* The terminal relay (pty.c, PROTOCOL.md TERMINAL). */
#ifndef AASM_PTY_H
#define AASM_PTY_H

/* In the launcher, after the view: when fd 0 is a terminal we may use, opens a pseudo-terminal of the
 * boundary, copies the window size, puts the caller's terminal in raw mode. Returns the master or -1. */
int pty_open(char *slave, unsigned long cap);

/* In the program child, after setsid(): makes the slave its controlling terminal and its stdin, and its
 * stdout/stderr where those were the caller's terminal. */
void pty_attach(const char *slave);

/* Copies the caller's window size to the master (SIGWINCH). */
void pty_resize(int master);

/* Restores the caller's terminal mode; safe to call more than once and from refuse(). */
void pty_restore(void);

/* The descriptor the program's terminal output goes to (1 or 2 when a terminal, else -1). */
int pty_output_fd(void);

#endif
