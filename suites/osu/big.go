package osu

import (
	"fmt"
	"slices"
	"strings"

	"mpibench/internal/cli"
	"mpibench/mpi"
	"mpibench/run/memcheck"
)

// Messages of 2 GiB and more (-m ...:4G): OSU's sizes are int, so OSU
// itself stops below 2 GiB; here the tests of bigBenchmarks run sizes
// from 2 GiB on with the large-count kernels of mpi/bigcount.c (MPI-4's
// MPI_Send_c, ... on MPICH, a derived datatype on Open MPI), with OSU's
// loops, counts and figures, in bigType's datatype only.

// maxBigSize bounds -m: 1 TiB, far beyond any node's memory (the memory
// check refuses what does not fit) and far below an overflow of the
// sizes' doubling.
const maxBigSize = 1 << 40

// bigBenchmarks are the tests with a large-count kernel.
var bigBenchmarks = []string{"osu_latency", "osu_bw", "osu_bibw", "osu_bcast", "osu_reduce", "osu_allreduce"}

// bigType is the one -T a test runs at 2 GiB and more: MPI_CHAR, and
// MPI_FLOAT for the reductions (the large-count layer's MPI_SUM is over
// floats: bigcount.h; a sum of MPI_CHARs would need a user operation of
// its own under Open MPI's derived types).
func bigType(name string) string {
	if name == "osu_reduce" || name == "osu_allreduce" {
		return "MPI_FLOAT"
	}
	return "MPI_CHAR"
}

// bigHelp names the tests that run 2 GiB and more for the help, each with
// its -T where that is not the default.
func bigHelp() string {
	var names []string
	for _, n := range bigBenchmarks {
		if t := bigType(n); t != "MPI_CHAR" {
			n += " (-T " + strings.ToLower(t) + ")"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

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
	case slices.ContainsFunc(o.Types, func(t string) bool { return t != bigType(b.Name) }):
		why = fmt.Sprintf("only -T %s runs at these sizes for %s", strings.ToLower(bigType(b.Name)), b.Name)
	case o.InPlace:
		why = "-l (MPI_IN_PLACE) does not run at these sizes"
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
// what it sends from), osu_bw (a sender's send buffer, a receiver's
// receive buffer) and osu_bcast (one buffer: the root sends from it, the
// others receive into it), two for osu_bibw, osu_reduce (its root's; the
// others' send buffer alone) and osu_allreduce. The int sizes of the
// same run below 2 GiB allocate np·size for each of two buffers
// (collrun.go), at most 2·np GiB: memoryNeed's bound for them.
func bigNeed(b *Benchmark, o *Options, np int) (memcheck.Need, bool) {
	if !mpi.IsBig(o.MaxSize) {
		return memcheck.Need{}, false
	}
	n := int64(1)
	if b.Name == "osu_bibw" || b.Name == "osu_reduce" || b.Name == "osu_allreduce" {
		n = 2 // mpi.OSUCollBig.bufs: a reduction's send and receive buffers
	}
	need := n * o.MaxSize
	for _, s := range o.Sizes() {
		if b.Kind.Collective() && !mpi.IsBig(s) {
			need = max(need, 2*int64(np)*s) // newCollBuffers
		}
	}
	return memcheck.Need{What: fmt.Sprintf("%s at %d bytes", b.Name, o.MaxSize), Bytes: need}, true
}

// measureBig is measureP2P at a size of 2 GiB and more.
func measureBig(r *Run, kind mpi.OSUKind, size int64) (Result, error) {
	s := r.spec(kind, size)
	res, mode, err := mpi.OSUBigRun(r.World, &mpi.OSUBig{Kind: kind, Bytes: size, Iters: s.Iters, Skip: s.Skip,
		Window: s.Window, VWarm: s.VWarm, Check: s.Check, Samples: s.Samples})
	if err != nil {
		return Result{}, err // named by Run.inCase
	}
	all, err := r.World.GatherFloat64s([]float64{res.Time, float64(res.Errors)})
	if err != nil || r.Rank != 0 {
		return Result{}, err
	}
	out := r.figures(kind, s, size, all, res.Samples)
	out.CountMode = mode
	return out, nil
}

// measureCollBig is measureColl at a size of 2 GiB and more: OSU's loop
// (osucoll.h) with the large-count calls, and OSU's figures.
func measureCollBig(r *Run, t collTest, size int64) (Result, error) {
	iters, skip := r.Opts.Counts(size)
	root := r.Opts.Root
	if t.kind == mpi.OSUBcast {
		root = 0
	}
	times, mode, err := mpi.OSUCollBigRun(r.World, &mpi.OSUCollBig{Kind: t.kind, Bytes: size, Iters: iters,
		Skip: skip, VWarm: r.Opts.ValidationWarmup, Root: root, Check: r.Opts.Validate,
		Samples: len(r.Opts.Percentiles) > 0 || r.Opts.Samples})
	if err != nil {
		return Result{}, err // named by Run.inCase
	}
	s := &collSetup{comm: r.World, test: t, opts: r.Opts, typ: osuTypes[r.TypeName], size: size, iters: iters,
		skip: skip}
	res, err := s.blockingResult(times)
	res.CountMode = mode
	return res, err
}

// bigColl tells whether measureCollBig runs size: 2 GiB and more for a
// blocking test with a large-count kernel, in its datatype, without -l
// (options refuse the others there; the mutant build's test hook, which
// lowers the threshold, runs them with the int kernels).
func bigColl(r *Run, t collTest, nb bool, size int64) bool {
	return mpi.IsBig(size) && !nb && mpi.OSUCollBigKind(t.kind) && r.TypeName == bigType(t.name) &&
		!r.Opts.InPlace
}
