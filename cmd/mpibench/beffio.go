package main

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"mpibench/mpijob"
	"os"
	"path/filepath"
	"strings"
	"time"

	"mpibench/beffio"
	"mpibench/mpi"
	"mpibench/report"
)

// runBeffIO runs the effective I/O bandwidth benchmark.
func runBeffIO(args []string, stdout, stderr io.Writer) int {
	return mpijob.Run(mpijob.Command[beffio.Options]{Name: "beffio", Usage: beffio.Usage, Parse: parseBeffIO, Run: measureBeffIO},
		args, stdout, stderr)
}

// parseBeffIO reads the command line and chooses the file prefix.
func parseBeffIO(args []string, size int, _ bool) (beffio.Options, string, error) {
	o, err := beffio.ParseArgs(args)
	if err == nil {
		_, err = beffio.NewPlan(o, size, 1)
	}
	o.Prefix = beffioPrefix(o.JSON)
	return o, o.JSON, err
}

// beffioPrefix names this run's files only, so that two runs in one
// directory leave each other's files alone. With a results file the
// prefix comes from its absolute path: a run killed with SIGKILL (or whose
// launcher killed the ranks so) cannot remove its files, and the same run
// resumed with -resume then removes them at its end.
func beffioPrefix(results string) string {
	if abs, err := filepath.Abs(results); err == nil && results != "" {
		h := fnv.New64a()
		h.Write([]byte(abs))
		return fmt.Sprintf("b_eff_io_%016x", h.Sum64())
	}
	return fmt.Sprintf("b_eff_io_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6)
}

// measureBeffIO runs the plan and prints the result; every benchmark file
// is removed on every way out.
func measureBeffIO(o beffio.Options, env *mpijob.Env) int {
	if err := beffioCheckDir(env.World, o.IODir); err != nil {
		var ue *beffio.UsageError
		if !errors.As(err, &ue) {
			return env.Fail(err)
		}
		if env.World.Rank() == 0 {
			_, _ = fmt.Fprintf(env.Stderr, "mpibench beffio: %v\n", err)
		}
		return 2
	}
	beffio.Register(o.IODir, o.Prefix)
	mpijob.OnInterrupt(beffioInterrupted)
	defer removeBeffIOFiles(env.Stderr)
	// Files of the prefix left by a killed run of the same results file go
	// first (files are created with MPI_MODE_EXCL); the collective memory
	// check below keeps every rank from creating one before all removed.
	removeBeffIOFiles(env.Stderr)
	mem, err := beffMemory(env.World, o.Mem)
	if err != nil {
		return env.Fail(err)
	}
	plan, err := beffio.NewPlan(o, env.World.Size(), mem)
	if err != nil {
		return env.Fail(err)
	}
	if code, ok := mpijob.CheckMemory(env, beffio.MemoryNeed(plan), o.Mem); !ok {
		return code
	}
	if code, ok := mpijob.CheckDisk(env, o.IODir, o.Disk, beffioDiskNeed(plan)); !ok {
		return code
	}
	env.ResumeNote(false)
	var check beffio.Check
	out := beffio.Out{Guard: env.Guard, Sink: env.Sink(), Notes: env.Stderr, Check: &check}
	recs, werr, err := beffio.Run(plan, env.World, env.Ctx, beffUname(), out)
	if err != nil {
		// An MPI-IO failure of this rank (a failed or short transfer, a
		// full file system): abort removes the files first.
		return env.Abort(err)
	}
	code := env.Finish(werr, func() error { return report.BeffIOText(env.Stdout, recs) })
	if code != 0 {
		return code
	}
	return beffioCheckCode(env, check)
}

// beffioDiskNeed bounds the plan by the disk limit, once the free space is
// known, and returns what its files may need.
func beffioDiskNeed(plan *beffio.Plan) func(limit int64) (string, int64) {
	return func(limit int64) (string, int64) {
		plan.Bound(limit)
		return fmt.Sprintf("b_eff_io with M_PART %d bytes on partitions %v", plan.MPart, plan.Partitions),
			plan.DiskNeed()
	}
}

// beffioCheckCode is 3 on every rank when rank 0's data check found wrong
// chunks.
func beffioCheckCode(env *mpijob.Env, c beffio.Check) int {
	ok, err := mpijob.AgreeOK(env.World, c.Defects == 0)
	if err != nil {
		return env.Fail(err)
	}
	if ok {
		return 0
	}
	if env.World.Rank() == 0 {
		_, _ = fmt.Fprintf(env.Stderr, "mpibench beffio: the data check found %d wrong chunks in %s\n", c.Defects,
			strings.Join(c.Where, ", "))
	}
	return 3
}

// beffioInterrupted removes the files when a signal or an abort ends the
// run: it first stops this process from opening files (an open waits until
// the process exits), removes them, and again a moment later, so that a
// file an open in progress created goes too, as IMB-IO does.
func beffioInterrupted() {
	mpi.HaltFileCreation()
	// Best effort: a signal or an abort is ending the run, and its own
	// message is the one to tell.
	_ = beffio.RemoveFiles()
	time.Sleep(100 * time.Millisecond)
	_ = beffio.RemoveFiles()
}

// removeBeffIOFiles removes the run's files and says so when some stay
// behind on the disk.
func removeBeffIOFiles(stderr io.Writer) {
	if err := beffio.RemoveFiles(); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench beffio: warning: removing the benchmark files: %v\n", err)
	}
}

// beffioCheckDir makes sure every rank can create files in dir before
// anything is measured: a usage error on every rank if one cannot.
func beffioCheckDir(world mpi.Comm, dir string) error {
	f, err := os.CreateTemp(dir, ".b_eff_io_probe_*")
	if err == nil {
		err = f.Close()
		if rerr := os.Remove(f.Name()); err == nil {
			err = rerr
		}
	}
	if err != nil && world.Rank() != 0 {
		fmt.Fprintf(os.Stderr, "mpibench beffio: rank %d: -iodir: %v\n", world.Rank(), err)
	}
	ok, aerr := mpijob.AgreeOK(world, err == nil)
	if aerr != nil {
		return aerr
	}
	if err != nil {
		return beffio.Usagef("-iodir: %v", err)
	}
	if !ok {
		return beffio.Usagef("-iodir %s: not writable on every rank", dir)
	}
	return nil
}
