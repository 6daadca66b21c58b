package beffio

import (
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/mpi"
	"mpibench/run/mpijob"
	"mpibench/suites/beff/befftext"
)

// Command is mpibench beffio as mpibench's registry knows it.
var Command = mpijob.Command[Options]{Name: result.SuiteBeffIO, Usage: Usage, Parse: parseCommand,
	Run: runCommand}.Entry(result.SuiteBeffIO+" [flags]", "run b_eff_io, the effective I/O bandwidth")

// parseCommand reads the command line and chooses the file prefix.
func parseCommand(args []string, size int, _ bool) (Options, string, error) {
	o, err := ParseArgs(args)
	if err == nil {
		_, err = NewPlan(o, size, 1)
	}
	o.Prefix = filePrefix(o.JSON)
	return o, o.JSON, err
}

// filePrefix names this run's files only, so that two runs in one
// directory leave each other's files alone. With a results file the
// prefix comes from its absolute path: a run killed with SIGKILL (or whose
// launcher killed the ranks so) cannot remove its files, and the same run
// resumed with -resume then removes them at its end.
func filePrefix(results string) string {
	if abs, err := filepath.Abs(results); err == nil && results != "" {
		h := fnv.New64a()
		h.Write([]byte(abs))
		return fmt.Sprintf("b_eff_io_%016x", h.Sum64())
	}
	return fmt.Sprintf("b_eff_io_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6)
}

// runCommand runs the plan and prints the result; every benchmark file
// is removed on every way out.
func runCommand(o Options, env *mpijob.Env) int {
	if err := checkDir(env.World, o.IODir); err != nil {
		if !cli.IsUsage(err) {
			return env.Fail(err)
		}
		if env.World.Rank() == 0 {
			_, _ = fmt.Fprintf(env.Stderr, "mpibench beffio: %v\n", err)
		}
		return 2
	}
	Register(o.IODir, o.Prefix)
	mpijob.OnInterrupt(interrupted)
	defer removeFiles(env.Stderr)
	// Files of the prefix left by a killed run of the same results file go
	// first (files are created with MPI_MODE_EXCL); the collective memory
	// check below keeps every rank from creating one before all removed.
	removeFiles(env.Stderr)
	plan, code, ok := mpijob.SizedPlan(env, o.Mem, func(mb int) (*Plan, error) {
		return NewPlan(o, env.World.Size(), mb)
	}, MemoryNeed)
	if !ok {
		return code
	}
	if code, ok := mpijob.CheckDisk(env, o.IODir, o.Disk, diskNeed(plan)); !ok {
		return code
	}
	env.ResumeNote(false)
	var check Check
	out := Out{Cases: env.Cases, Sink: env.Sink(), Notes: env.Stderr, Check: &check}
	recs, werr, err := Run(plan, env.World, env.Ctx, mpijob.Uname(), out)
	if err != nil {
		// An MPI-IO failure of this rank (a failed or short transfer, a
		// full file system): abort removes the files first.
		return env.Abort(err)
	}
	code = env.Finish(werr, func() error { return befftext.BeffIOText(env.Stdout, recs) })
	if code != 0 {
		return code
	}
	return checkCode(env, check)
}

// diskNeed bounds the plan by the disk limit, once the free space is
// known, and returns what its files may need.
func diskNeed(plan *Plan) func(limit int64) (string, int64) {
	return func(limit int64) (string, int64) {
		plan.Bound(limit)
		return fmt.Sprintf("b_eff_io with M_PART %d bytes on partitions %v", plan.MPart, plan.Partitions),
			plan.DiskNeed()
	}
}

// checkCode is 3 on every rank when rank 0's data check found wrong
// chunks.
func checkCode(env *mpijob.Env, c Check) int {
	c, err := mpijob.Share(env.World, func() Check { return c })
	if err != nil {
		return env.Fail(err)
	}
	if c.Defects == 0 {
		return 0
	}
	if env.World.Rank() == 0 {
		_, _ = fmt.Fprintf(env.Stderr, "mpibench beffio: the data check found %d wrong chunks in %s\n", c.Defects,
			strings.Join(c.Where, ", "))
	}
	return 3
}

// interrupted removes the files when a signal or an abort ends the run:
// it first stops this process from opening files (an open waits until the
// process exits), removes them, and again a moment later, so that a file
// an open in progress created goes too, as IMB-IO does.
func interrupted() {
	mpi.HaltFileCreation()
	// Best effort: a signal or an abort is ending the run, and its own
	// message is the one to tell.
	_ = RemoveFiles()
	time.Sleep(100 * time.Millisecond)
	_ = RemoveFiles()
}

// removeFiles removes the run's files and says so when some stay behind
// on the disk.
func removeFiles(stderr io.Writer) {
	if err := RemoveFiles(); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench beffio: warning: removing the benchmark files: %v\n", err)
	}
}

// checkDir makes sure every rank can create files in dir before anything
// is measured: a usage error on every rank if one cannot.
func checkDir(world mpi.Comm, dir string) error {
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
		return Usagef("-iodir: %v", err)
	}
	if !ok {
		return Usagef("-iodir %s: not writable on every rank", dir)
	}
	return nil
}
