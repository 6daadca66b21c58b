package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"mpibench/beff"
	"mpibench/mpi"
	"mpibench/report"
	"mpibench/result"
)

// beffAgreed is what rank 0 broadcasts after reading the command line.
type beffAgreed struct {
	Err  string        `json:"err,omitempty"`
	Opts *beff.Options `json:"opts,omitempty"`
}

// runBeff runs the effective-bandwidth benchmark.
func runBeff(args []string, stdout, stderr io.Writer) (code int) {
	if hasHelp(args) {
		if launcherRank() == "0" {
			fmt.Fprint(stdout, beff.Usage)
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
			fmt.Fprintf(stderr, "mpibench: rank %d: internal error: %v\n", world.Rank(), p)
			mpi.Abort(1)
		}
		if err := mpi.Finalize(); err != nil && code == 0 {
			fmt.Fprintf(stderr, "mpibench: %v\n", err)
			code = 1
		}
	}()
	opts, file, err := beffAgree(world, args)
	var ue *beff.UsageError
	if errors.As(err, &ue) {
		if world.Rank() == 0 {
			fmt.Fprintf(stderr, "mpibench beff: %v\n", err)
		}
		return 2
	}
	if err != nil {
		return fail(world, stderr, err)
	}
	if file != nil {
		defer file.Close()
	}
	stop := cleanupOnSignal(stderr)
	defer stop()
	mem, err := beffMemory(world, opts.Mem)
	if err != nil {
		return fail(world, stderr, err)
	}
	plan, err := beff.NewPlan(*opts, world.Size(), mem)
	if err != nil {
		return fail(world, stderr, err)
	}
	ctx, err := runContext(world, append([]string{"beff"}, args...))
	if err != nil {
		return fail(world, stderr, err)
	}
	var sink func(*result.Record) error
	if file != nil {
		sink = result.NewWriter(file).Write
	}
	recs, werr, err := beff.Run(plan, world, ctx, beffUname(), sink)
	if err != nil {
		// An MPI or memory error of this rank: the others may be blocked
		// in a collective, so the job ends here.
		fmt.Fprintf(stderr, "mpibench beff: rank %d: %v\n", world.Rank(), err)
		mpi.Abort(1)
		return 1
	}
	if world.Rank() == 0 {
		// The text is rendered from the records even when the -json file
		// failed: they are all in memory.
		if terr := report.BeffText(stdout, recs); werr == nil {
			werr = terr
		}
	}
	// A failed write happened on rank 0 only; every rank leaves with the
	// same code.
	ok, err := beffAgreeOK(world, werr == nil)
	if err != nil {
		return fail(world, stderr, err)
	}
	if !ok {
		if werr != nil {
			fmt.Fprintf(stderr, "mpibench beff: %v\n", werr)
		}
		return 1
	}
	return 0
}

// beffAgree parses the command line on rank 0, opens the -json file there
// and broadcasts the outcome, so that every rank runs or exits alike.
func beffAgree(world mpi.Comm, args []string) (*beff.Options, *os.File, error) {
	var msg []byte
	var file *os.File
	if world.Rank() == 0 {
		var a beffAgreed
		o, err := beff.ParseArgs(args)
		if err == nil && world.Size() < 2 {
			err = beff.Usagef("b_eff needs at least 2 processes (got %d)", world.Size())
		}
		if err == nil && o.JSON != "" {
			file, err = os.OpenFile(o.JSON, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
			if err != nil {
				err = beff.Usagef("-json: %v", err)
			}
		}
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
	var a beffAgreed
	if err := json.Unmarshal(msg, &a); err != nil {
		return nil, nil, err
	}
	if a.Err != "" {
		return nil, nil, beff.Usagef("%s", a.Err)
	}
	return a.Opts, file, nil
}

// beffMemory is the memory per process in MB: -mem, or the physical
// memory of the host divided by the processes on it, the smallest over
// all hosts so that the buffers fit everywhere.
func beffMemory(world mpi.Comm, mem int) (int, error) {
	if mem > 0 {
		return mem, nil
	}
	local, err := world.BeffLocalSize()
	if err != nil {
		return 0, err
	}
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0, fmt.Errorf("sysinfo: %w", err)
	}
	phys := uint64(si.Totalram) * uint64(si.Unit)
	mb := max(1, int(phys/beff.MB/uint64(max(local, 1))))
	neg, err := world.AllreduceMax(-mb)
	return -neg, err
}

// beffAgreeOK is true on every rank when it is true on all of them.
func beffAgreeOK(world mpi.Comm, ok bool) (bool, error) {
	bad := 0
	if !ok {
		bad = 1
	}
	n, err := world.AllreduceMax(bad)
	return n == 0, err
}

// beffUname is what uname -a prints: system, node, release, version,
// machine (and "GNU/Linux" on Linux, as coreutils adds).
func beffUname() string {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		return "unknown"
	}
	f := []string{utsString(u.Sysname[:]), utsString(u.Nodename[:]), utsString(u.Release[:]),
		utsString(u.Version[:]), utsString(u.Machine[:])}
	if f[0] == "Linux" {
		f = append(f, "GNU/Linux")
	}
	return strings.Join(f, " ")
}
