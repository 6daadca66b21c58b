package osu

import (
	"fmt"
	"slices"

	"mpibench/internal/cli"
	"mpibench/internal/memcheck"
	"mpibench/mpi"
)

// Messages of 2 GiB and more (-m ...:4G): OSU's sizes are int, so OSU
// itself stops below 2 GiB; here osu_latency, osu_bw and osu_bibw run
// sizes from 2 GiB on with the large-count kernels of mpi/bigcount.c
// (MPI-4's MPI_Send_c, ... on MPICH, a derived datatype on Open MPI),
// with OSU's loops, counts and figures, MPI_CHAR only.

// maxBigSize bounds -m: 1 TiB, far beyond any node's memory (the memory
// check refuses what does not fit) and far below an overflow of the
// sizes' doubling.
const maxBigSize = 1 << 40

// bigBenchmarks are the tests with a large-count kernel.
var bigBenchmarks = []string{"osu_latency", "osu_bw", "osu_bibw"}

// checkBigSizes refuses -m beyond 2 GiB - 1 where no large-count kernel
// carries it: another test, a datatype other than MPI_CHAR, -D or
// -b multiple.
func checkBigSizes(b *Benchmark, o *Options) error {
	if o.MaxSize <= MaxBytes {
		return nil
	}
	why := ""
	switch {
	case !slices.Contains(bigBenchmarks, b.Name):
		why = fmt.Sprintf("%s has no large-count kernel (only %v have)", b.Name, bigBenchmarks)
	case o.MaxSize > maxBigSize:
		why = "the most is 1 TiB (1099511627776 bytes)"
	case slices.ContainsFunc(o.Types, func(t string) bool { return t != "MPI_CHAR" }):
		why = "only -T mpi_char runs at these sizes"
	case o.DDT != nil:
		why = "-D (derived datatypes) does not run at these sizes"
	case o.MultipleBuffers:
		why = "-b multiple does not run at these sizes"
	}
	if why == "" {
		return nil
	}
	return cli.Usagef("-m: %d bytes: messages of %s or more: %s; lower -m to at most %d", o.MaxSize,
		byteLimitNote, why, MaxBytes)
}

// bigNeed is memoryNeed for a run with sizes of 2 GiB and more: one
// buffer of the largest size per rank for osu_latency (it receives into
// what it sends from) and osu_bw (a sender's send buffer, a receiver's
// receive buffer), two for osu_bibw.
func bigNeed(b *Benchmark, o *Options) (memcheck.Need, bool) {
	if !mpi.IsBig(o.MaxSize) {
		return memcheck.Need{}, false
	}
	n := int64(1)
	if b.Name == "osu_bibw" {
		n = 2
	}
	return memcheck.Need{What: fmt.Sprintf("%s at %d bytes", b.Name, o.MaxSize), Bytes: n * o.MaxSize}, true
}

// measureBig is measureP2P at a size of 2 GiB and more.
func measureBig(r *Run, kind mpi.OSUKind, size int64) (Result, error) {
	s := r.spec(kind, size)
	res, mode, err := mpi.OSUBigRun(r.World, &mpi.OSUBig{Kind: kind, Bytes: size, Iters: s.Iters, Skip: s.Skip,
		Window: s.Window, VWarm: s.VWarm, Check: s.Check, Samples: s.Samples})
	if err != nil {
		return Result{}, fmt.Errorf("%s, %d bytes, %s: %w", r.Bench.Name, size, r.TypeName, err)
	}
	all, err := r.World.GatherFloat64s([]float64{res.Time, float64(res.Errors)})
	if err != nil || r.Rank != 0 {
		return Result{}, err
	}
	out := r.figures(kind, s, size, all, res.Samples)
	out.CountMode = mode
	return out, nil
}
