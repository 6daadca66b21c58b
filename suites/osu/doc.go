// Package osu is mpibench osu: the tests of the OSU Micro-Benchmarks 7.4,
// one test per launch as OSU runs one program, with OSU's program names,
// OSU's options (its getopt letters and long names, each test taking
// exactly those OSU gives it), OSU's counts and OSU's output shape, so that
// a harness that parses OSU's output reads mpibench's unchanged.
//
// The point-to-point tests (osu_latency, osu_bw, osu_bibw, osu_mbw_mr,
// osu_multi_lat, osu_latency_mt, osu_latency_mp, the congestion tests
// osu_bw_fan_in and osu_bw_fan_out) and the blocking, non-blocking and
// persistent (MPI-4) collective latency tests (osu_allreduce, osu_ibcast,
// osu_bcast_persistent, ...) share one
// driver over datatypes (-T) and sizes (-m); every size is a case of the
// journal and every row a Record. The timed loops are OSU's, in C
// (mpi/osu.c, mpi/osucoll.c); -c runs their check instantiation, whose
// content differs per rank and iteration. Sizes of 2 GiB and more go
// through the large-count layer (big.go). The start-up tests osu_init and
// osu_hello (startup.go) have no sizes; osu_init reports the MPI_Init that
// every command's start-up times. docs/osu.md is the manual.
package osu
