/* The launch's own terminal, relayed to the caller's (see terminal.c). */
#ifndef AASM_SANDLOCK_TERMINAL_H
#define AASM_SANDLOCK_TERMINAL_H

#include <poll.h>

/* In the guard, before forking sandlock's process: 0 with a pseudo-terminal ready when the caller's stdin
 * is a terminal this process may use, 1 when there is none to relay, -1 (errno set) when one could not be
 * made. The caller's terminal is put into raw mode until term_restore(). */
int term_open(void);

/* In sandlock's process, after setsid(): the pseudo-terminal becomes its controlling terminal and its
 * stdin (and stdout/stderr where those were terminals). Returns 0 or errno. */
int term_attach(void);

/* The relay's descriptors, for poll: pf must have room for TERM_POLLFDS entries. */
#define TERM_POLLFDS 3
void term_pollfds(struct pollfd *pf);

/* Moves what poll said is ready, in both directions. */
void term_pump(const struct pollfd *pf);

/* The caller's window size copied to the program's terminal (the supervisor relays SIGWINCH as "winch"). */
void term_resize(void);

/* After the tree is gone: the program's last output to the caller, then the caller's modes restored. */
void term_drain(void);
void term_restore(void);

#endif
