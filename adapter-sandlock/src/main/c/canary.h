/* The boundary tested from inside, before the program exists (see canary.c and GUARD.md "Canaries"). */
#ifndef AASM_SANDLOCK_CANARY_H
#define AASM_SANDLOCK_CANARY_H

/* Runs the canaries named by args[0..n) ("canary:..." words) and reports them on the evidence FIFO.
 * Returns 0 when every canary was denied (or none was asked), 125 when one got through or the record
 * could not be delivered: nothing may run then. */
int canary_run(int n, char **args);

#endif
