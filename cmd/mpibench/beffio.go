package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"mpibench/beffio"
	"mpibench/mpi"
	"mpibench/report"
	"mpibench/result"
)

// beffioAgreed is what rank 0 broadcasts after reading the command line.
type beffioAgreed struct {
	Err  string          `json:"err,omitempty"`
	Opts *beffio.Options `json:"opts,omitempty"`
}

// runBeffIO runs the effective I/O bandwidth benchmark.
func runBeffIO(args []string, stdout, stderr io.Writer) (code int) {
	if hasHelp(args) {
		if launcherRank() == "0" {
			fmt.Fprint(stdout, beffio.Usage)
		}
		return 0
	}
	if err := mpi.Init(); err != nil {
		fmt.Fprintf(stderr, "mpibench: %v\n", err)
		return 1
	}
	world := mpi.World()
	defer func() {
		if p := recover(); p != nil {
			beffio.RemoveFiles()
			fmt.Fprintf(stderr, "mpibench: rank %d: internal error: %v\n", world.Rank(), p)
			mpi.Abort(1)
		}
		if err := mpi.Finalize(); err != nil && code == 0 {
			fmt.Fprintf(stderr, "mpibench: %v\n", err)
			code = 1
		}
	}()
	opts, file, err := beffioAgree(world, args)
	if err == nil {
		err = beffioCheckDir(world, opts.IODir)
	}
	var ue *beffio.UsageError
	if errors.As(err, &ue) {
		if world.Rank() == 0 {
			fmt.Fprintf(stderr, "mpibench beffio: %v\n", err)
		}
		return 2
	}
	if err != nil {
		return fail(world, stderr, err)
	}
	if file != nil {
		defer file.Close()
	}
	return beffioMeasure(world, opts, file, args, stdout, stderr)
}

// beffioMeasure runs the plan and prints the result; every benchmark file
// is removed on every way out.
func beffioMeasure(world mpi.Comm, opts *beffio.Options, file *os.File, args []string, stdout, stderr io.Writer) int {
	beffio.Register(opts.IODir, opts.Prefix)
	stop := beffioOnSignal(stderr)
	defer stop()
	defer beffio.RemoveFiles()
	mem, err := beffMemory(world, opts.Mem)
	if err != nil {
		return fail(world, stderr, err)
	}
	plan, err := beffio.NewPlan(*opts, world.Size(), mem)
	if err != nil {
		return fail(world, stderr, err)
	}
	ctx, err := runContext(world, append([]string{"beffio"}, args...))
	if err != nil {
		return fail(world, stderr, err)
	}
	var sink func(*result.Record) error
	if file != nil {
		sink = result.NewWriter(file).Write
	}
	recs, werr, err := beffio.Run(plan, world, ctx, beffUname(), sink)
	if err != nil {
		// An MPI error of this rank: the others may be blocked in a
		// collective, so the job ends here, without its files.
		beffio.RemoveFiles()
		fmt.Fprintf(stderr, "mpibench beffio: rank %d: %v\n", world.Rank(), err)
		mpi.Abort(1)
		return 1
	}
	if world.Rank() == 0 {
		if terr := report.BeffIOText(stdout, recs); werr == nil {
			werr = terr
		}
	}
	ok, err := beffAgreeOK(world, werr == nil)
	if err != nil {
		return fail(world, stderr, err)
	}
	if !ok {
		if werr != nil {
			fmt.Fprintf(stderr, "mpibench beffio: %v\n", werr)
		}
		return 1
	}
	return 0
}

// beffioAgree parses the command line on rank 0, opens the -json file
// there, chooses the file prefix and broadcasts the outcome.
func beffioAgree(world mpi.Comm, args []string) (*beffio.Options, *os.File, error) {
	var msg []byte
	var file *os.File
	if world.Rank() == 0 {
		var a beffioAgreed
		o, err := beffio.ParseArgs(args)
		if err == nil {
			_, err = beffio.NewPlan(o, world.Size(), 1)
		}
		if err == nil && o.JSON != "" {
			file, err = os.OpenFile(o.JSON, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
			if err != nil {
				err = beffio.Usagef("-json: %v", err)
			}
		}
		// The prefix names this run's files only: two runs in one
		// directory, or a leftover of a killed run, are left alone.
		o.Prefix = fmt.Sprintf("b_eff_io_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6)
		if err != nil {
			a.Err = err.Error()
		} else {
			a.Opts = &o
		}
		msg, _ = json.Marshal(a)
	}
	msg, err := world.BcastBytes(msg)
	if err != nil {
		return nil, nil, err
	}
	var a beffioAgreed
	if err := json.Unmarshal(msg, &a); err != nil {
		return nil, nil, err
	}
	if a.Err != "" {
		return nil, nil, beffio.Usagef("%s", a.Err)
	}
	return a.Opts, file, nil
}

// beffioCheckDir makes sure every rank can create files in dir before
// anything is measured: a usage error on every rank if one cannot.
func beffioCheckDir(world mpi.Comm, dir string) error {
	f, err := os.CreateTemp(dir, ".b_eff_io_probe_*")
	if err == nil {
		f.Close()
		err = os.Remove(f.Name())
	}
	if err != nil && world.Rank() != 0 {
		fmt.Fprintf(os.Stderr, "mpibench beffio: rank %d: -iodir: %v\n", world.Rank(), err)
	}
	ok, aerr := beffAgreeOK(world, err == nil)
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

// beffioOnSignal makes SIGINT and SIGTERM remove this rank's benchmark
// files and exit with 128+signal, as cleanupOnSignal does for IMB-IO.
// MPI is not called from the handler.
func beffioOnSignal(stderr io.Writer) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			beffio.RemoveFiles()
			fmt.Fprintf(stderr, "mpibench: interrupted by %v; finished records are kept\n", sig)
			os.Exit(128 + int(sig.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
