//go:build cgo && !nompi

// Command gokernel runs one size of mpibench's OSU point-to-point kernels
// through their Go side (mpi.Init, suites/osu/kernel's Run: the buffers,
// the cgo call) from a bare Go main, without the rest of mpibench. With
// lab/osudriver.c (the same kernel from a C main) it bisects a gap between
// `mpibench osu` and OSU's own binary: the kernel (both show it), the Go
// runtime around a cgo call (gokernel shows it, osudriver does not), or
// what mpibench does around the kernel (neither shows it). See docs/lab.md and the logs it
// lists.
//
// Usage: go build -o gokernel ./lab/gokernel   (-tags mpich for MPICH)
//
//	mpirun -np 2 ./gokernel bw|bibw|latency SIZE [ITERS]
//	mpirun -np 2 ./gokernel imb PingPong|PingPing LEN...   (imb.go)
//
// OSU 7.4's counts (or ITERS timed iterations) and window 64, as
// osudriver; prints OSU's row.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"mpibench/mpi"
	"mpibench/suites/osu/kernel"
)

func init() { runtime.LockOSThread() } // every MPI call from the main thread

func main() {
	if len(os.Args) > 1 && os.Args[1] == "imb" {
		session(func() error { return imbMain(os.Args[2:]) })
		return
	}
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: mpirun -np 2 gokernel bw|bibw|latency SIZE [ITERS]")
		os.Exit(2)
	}
	size, err := strconv.ParseInt(os.Args[2], 10, 64)
	if err != nil || size < 1 {
		fmt.Fprintf(os.Stderr, "gokernel: SIZE %q: want a positive number of bytes\n", os.Args[2])
		os.Exit(2)
	}
	s := spec(os.Args[1], size)
	if len(os.Args) == 4 {
		if s.Iters, err = strconv.Atoi(os.Args[3]); err != nil || s.Iters < 1 {
			fmt.Fprintf(os.Stderr, "gokernel: ITERS %q: want a positive count\n", os.Args[3])
			os.Exit(2)
		}
	}
	session(func() error {
		res, err := kernel.Run(mpi.World(), s)
		if err != nil {
			return err
		}
		if mpi.World().Rank() == 0 {
			_, _ = fmt.Printf("%-10d %.2f\n", size, figure(s, res.Time)) // stdout gone: nothing to tell
		}
		return nil
	})
}

// session runs body between mpi.Init (thread level single) and
// mpi.Finalize, after GOKERNEL_PRE's steps; an error aborts the job.
func session(body func() error) {
	single, _ := mpi.ParseThreadLevel("single")
	if err := mpi.Init(single); err != nil {
		fmt.Fprintln(os.Stderr, "gokernel:", err)
		os.Exit(1)
	}
	err := pre(os.Getenv("GOKERNEL_PRE"))
	if err == nil {
		err = body()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gokernel:", err)
		mpi.Abort(1)
	}
	if err := mpi.Finalize(); err != nil {
		fmt.Fprintln(os.Stderr, "gokernel:", err)
		os.Exit(1)
	}
}

// pre does before the kernel what GOKERNEL_PRE names (comma-separated),
// to bisect a gap between gokernel and mpibench: "bcast", "gather",
// "allreduce", "barrier", one call of that collective (bcast is
// mpi.BcastBytes, gather the processor names); "coll", the eight
// collectives mpibench's set-up made before mpi.BcastBytes took one
// broadcast (lab/precoll.c's: two MPI_Bcast, MPI_Gather, MPI_Allreduce,
// four MPI_Bcast); "sleep", 50 ms without MPI traffic; "alloc", a 64 KiB
// buffer allocated (and kept) first, so that the kernel's buffers land
// elsewhere; "print", a header written to stdout by rank 0 right before
// the kernel, as OSU and mpibench do.
func pre(what string) error {
	w := mpi.World()
	for _, p := range strings.Split(what, ",") {
		switch p {
		case "":
		case "coll":
			if err := pre(collSteps); err != nil {
				return err
			}
		case "bcast":
			if _, err := w.BcastBytes([]byte("context")); err != nil {
				return err
			}
		case "gather":
			if _, err := w.GatherProcessorNames(); err != nil {
				return err
			}
		case "allreduce":
			if _, err := w.AllreduceMax(1); err != nil {
				return err
			}
		case "barrier":
			if err := w.Barrier(); err != nil {
				return err
			}
		case "sleep":
			time.Sleep(50 * time.Millisecond)
		case "alloc":
			if _, err := mpi.Alloc(65536); err != nil {
				return err
			}
		case "print":
			if w.Rank() == 0 {
				_, _ = fmt.Printf("# OSU MPI Bi-Directional Bandwidth Test v7.4\n# Size      Bandwidth (MB/s)\n")
			}
		default:
			return fmt.Errorf("GOKERNEL_PRE: %q: want coll, bcast, gather, allreduce, barrier, sleep, alloc or print", p)
		}
	}
	return nil
}

// collSteps are "coll"'s steps.
const collSteps = "bcast,bcast,gather,allreduce,bcast,bcast,bcast,bcast"

// spec is osudriver's: OSU 7.4's iterations and skip at size (osu_util.h:
// bandwidth 100 and 10 up to 8 KiB, 20 and 2 above; latency 10000 and 100,
// 1000 and 10 above), window 64, MPI_CHAR.
func spec(kind string, size int64) *kernel.Spec {
	s := &kernel.Spec{Kind: mpi.OSULatency, TypeSize: 1, Elements: size, Window: 1, Iters: 10000, Skip: 100}
	if size > 8192 {
		s.Iters, s.Skip = 1000, 10
	}
	if kind == "bw" || kind == "bibw" {
		s.Kind, s.Window, s.Iters, s.Skip = mpi.OSUBw, 64, 100, 10
		if size > 8192 {
			s.Iters, s.Skip = 20, 2
		}
		if kind == "bibw" {
			s.Kind = mpi.OSUBibw
		}
	}
	return s
}

// figure is OSU's: µs per one-way message, or MB/s.
func figure(s *kernel.Spec, t float64) float64 {
	if s.Kind == mpi.OSULatency {
		return t * 1e6 / (2 * float64(s.Iters))
	}
	mb := float64(s.Elements) / 1e6 * float64(s.Iters) * float64(s.Window)
	if s.Kind == mpi.OSUBibw {
		mb *= 2
	}
	return mb / t
}
