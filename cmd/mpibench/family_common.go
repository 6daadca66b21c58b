package main

// familySuffix makes the family binary's name from the MPI binary's
// (mpibench-imb, mpibench-mpich-imb); familyEnv names it elsewhere.
// familyFrom, FLAVOR:PATH, is set in the family binary's environment by
// the mpibench that execs it: a family binary of another MPI refuses to
// run, and an mpibench that finds it set was itself run as the family
// binary and would exec forever.
const (
	familySuffix = "-imb"
	familyEnv    = "MPIBENCH_IMB"
	familyFrom   = "MPIBENCH_IMB_FROM"
)
