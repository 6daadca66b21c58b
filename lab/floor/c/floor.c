/* floorc: the C floor of a rank (lab/floor/main.go is the Go one).
 * mpicc -O2 -o floorc lab/floor/c/floor.c */
#include "../floor.h"

int main(void) { return floor_run(); }
