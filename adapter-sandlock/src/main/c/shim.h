/* The program's side of a launch: aasm's seccomp filter, then the program (see shim.c). */
#ifndef AASM_SANDLOCK_SHIM_H
#define AASM_SANDLOCK_SHIM_H

int shim_main(int argc, char **argv);

#endif
