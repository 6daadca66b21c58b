//go:build cgo && !nompi

package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"mpibench/mpi"
	"mpibench/suites/imb"
	"mpibench/suites/imb/kernel"
)

// imbMain is "gokernel imb PingPong|PingPing LEN...": lab/imbdriver.c's
// program through Go: mpibench's IMB 3.0 kernel (suites/imb/kernel, Run.Exec),
// one send and one receive buffer of the longest length (mpi.Alloc), IMB
// 3.0's warm-up (one sample at the longest length, no barriers), then per
// length IMB 3.0's count, min(1000, 40 MiB / LEN), after N_BARR = 2
// barriers (mpi1's settings, imb.MPI1Suite). GOKERNEL_LEN names what the driver does after each sample
// (comma-separated): "gather" (the sample's four figures, as mpi1's
// driver), "barrier", "bcast" (one int, as mpi1's output step). Prints
// rank 0's time per repetition in µs (PingPong: half the round trip).
func imbMain(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: gokernel imb PingPong|PingPing LEN...")
	}
	k := kernel.PingPong
	if args[0] == "PingPing" {
		k = kernel.PingPing
	}
	lens := make([]int, len(args)-1)
	for i, a := range args[1:] {
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			return fmt.Errorf("LEN %q: want a number of bytes", a)
		}
		lens[i] = n
	}
	w := mpi.World()
	var out bytes.Buffer
	top := slices.Max(lens)
	send, err := mpi.Alloc(top)
	if err != nil {
		return err
	}
	recv, err := mpi.Alloc(top)
	if err != nil {
		return err
	}
	set := &imb.MPI1Suite.Settings
	run := &kernel.Run{Kernel: k, Comm: w, Send: send, Recv: recv, Count: top, Reps: set.Repetitions(top, imb.NoMode)}
	if _, err := run.Exec(); err != nil {
		return err
	}
	for _, x := range lens {
		run.Count, run.Reps, run.Barriers = x, set.Repetitions(x, imb.NoMode), set.NBarr
		t, err := run.Exec()
		if err != nil {
			return err
		}
		if err := afterSample(w, t); err != nil {
			return err
		}
		if k == kernel.PingPong {
			t /= 2
		}
		if w.Rank() == 0 {
			fmt.Fprintf(&out, "%-10s %-10d %.4f\n", args[0], x, t*1e6)
			if os.Getenv("GOKERNEL_OUT") != "end" {
				flush(&out)
			}
		}
	}
	flush(&out)
	return nil
}

// flush writes what out holds to stdout: after every row, or with
// GOKERNEL_OUT=end once at the end, as C's stdio does on a pipe (no
// write, so no wake of the launcher's proxy, between the samples).
func flush(out *bytes.Buffer) {
	_, _ = os.Stdout.Write(out.Bytes()) // stdout gone: nothing to tell
	out.Reset()
}

// afterSample does GOKERNEL_LEN's steps.
func afterSample(w mpi.Comm, t float64) error {
	for _, p := range strings.Split(os.Getenv("GOKERNEL_LEN"), ",") {
		var err error
		switch p {
		case "":
		case "gather":
			_, err = w.GatherFloat64s([]float64{t, 0, 0, 0})
		case "barrier":
			err = w.Barrier()
		case "bcast":
			_, err = w.BcastInt(1)
		default:
			err = fmt.Errorf("GOKERNEL_LEN: %q: want gather, barrier or bcast", p)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
