package osu

import (
	"fmt"
	"strconv"
	"strings"

	"mpibench/mpi"
	"mpibench/suites/osu/kernel"
)

// osu_latency_mp (c/mpi/pt2pt/standard/osu_latency_mp.c): osu_latency's
// ping-pong between ranks 0 and 1, with an MPI_Barrier before every
// repetition, after each of the two has forked processes that sleep
// CHILD_SLEEP_SECONDS (2) and exit. The forks come after MPI_Init and the
// preamble, before the buffers are made: what the test shows is MPI's
// latency in a process that has forked (copy-on-write pages, the library's
// fork handlers) with sleeping copies beside it. The children run no MPI.
//
// mpibench forks in C (kernel.Fork, mb_osu_fork): each child is a copy of
// the calling thread of a multi-threaded Go process, so it only resets
// its signal handlers, sleeps and leaves with _exit, never returning to Go
// or touching the MPI library, stdio or Go's heap. See docs/osu.md for
// what differs from OSU's children.

// optsLatMP is OMBOP__PT2PT__LAT_MP (osu_util_options.h).
const optsLatMP = "+:hvm:x:i:t:c::u:G:D:P:T:Iz::"

func init() {
	register(&Benchmark{Name: "osu_latency_mp", Title: "Multi-process Latency Test", Kind: LatencyMP,
		Opts: optsLatMP, Calls: "MPI_Send, MPI_Recv (forked processes)", Procs: exactly(2),
		Measure: measureP2P(mpi.OSULatMP)})
}

// setProcs is osu_latency_mp's -t (osu_util.c: set_processes): R, the
// receiver's processes (the sender then forks none: sender_processes
// -1), or S:R; each from MIN_NUM_PROCESSES 1 to MAX_NUM_PROCESSES - 1.
func (o *Options) setProcs(v string) error {
	s, r, two := strings.Cut(v, ":")
	if !two {
		n, err := procs(v)
		o.ReceiverProcs, o.SenderProcs = n, -1
		return err
	}
	ns, err := procs(s)
	if err != nil {
		return err
	}
	o.SenderProcs = ns
	o.ReceiverProcs, err = procs(r)
	return err
}

func procs(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n >= MaxProcs {
		return 0, fmt.Errorf("want processes from 1 to %d (OSU 7.4: Invalid Number of Processes)", MaxProcs-1)
	}
	return n, nil
}

// Forks are the processes rank 0 (sender) and rank 1 (receiver) fork:
// osu_latency_mp.c's num_processes_sender (0 after -t R) and
// options.num_processes, the two numbers its first lines print.
func (o *Options) Forks() (sender, receiver int) {
	return max(o.SenderProcs, 0), o.ReceiverProcs
}

// fork makes this rank's processes of osu_latency_mp (after the
// preamble, as osu_latency_mp.c's main); the driver reaps them at the end.
func (d *driver) fork() error {
	r := d.run
	if r.Bench.Kind != LatencyMP {
		return nil
	}
	n, receiver := r.Opts.Forks()
	if r.Rank == 1 {
		n = receiver
	}
	pids, err := kernel.Fork(n)
	d.forked = pids
	return err
}

// latMPPreamble is osu_latency_mp.c's two lines before print_preamble.
func (t *Text) latMPPreamble(o *Options) {
	s, r := o.Forks()
	t.Printf("# Number of forked processes in sender: %d\n# Number of forked processes in receiver: %d\n", s, r)
}
