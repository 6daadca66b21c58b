package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"mpibench/imb"
	"mpibench/mpi"
	"mpibench/report"
	"mpibench/result"
)

type listed struct{ suite, name, class, datatype, calls string }

func benchmarks() []listed {
	var out []listed
	for _, s := range imb.Suites {
		for _, b := range s.Table {
			out = append(out, listed{s.Name, b.Name, b.Class.Title(), b.Datatype(), b.Calls})
		}
	}
	return out
}

// agreed is what rank 0 broadcasts after reading the command line and the
// input files: a Config, or the error every rank exits with.
type agreed struct {
	Err    string      `json:"err,omitempty"`
	Config *imb.Config `json:"config,omitempty"`
}

// runIMB runs one IMB suite: mpi1, ext or io.
func runIMB(suite *imb.Suite, args []string, stdout, stderr io.Writer) (code int) {
	if hasHelp(args) {
		if launcherRank() == "0" {
			fmt.Fprint(stdout, imbUsage(suite))
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
	cfg, jsonFile, err := agree(world, suite, args)
	if err != nil {
		if world.Rank() == 0 {
			fmt.Fprintf(stderr, "mpibench %s: %v\n", suite.Name, err)
		}
		return 2
	}
	if jsonFile != nil {
		defer jsonFile.Close()
	}
	stop := cleanupOnSignal(stderr)
	defer stop()
	ctx, err := runContext(world, append([]string{suite.Name}, args...))
	if err != nil {
		return fail(world, stderr, err)
	}
	var out *imb.Output
	if world.Rank() == 0 {
		out = &imb.Output{Text: report.NewIMBText(stdout)}
		if jsonFile != nil {
			out.Records = result.NewWriter(jsonFile)
		}
	}
	bad, err := imb.NewDriver(cfg, ctx, out).Run()
	var usage *imb.UsageError
	if errors.As(err, &usage) {
		fmt.Fprintf(stderr, "mpibench %s: %v\n", suite.Name, err)
		return 2
	}
	if err != nil {
		return fail(world, stderr, err)
	}
	return checkCode(world, bad)
}

// agree parses and resolves the command line on rank 0, opens the -json
// file there, and broadcasts the outcome so every rank runs the same
// Config or exits with the same error.
func agree(world mpi.Comm, suite *imb.Suite, args []string) (*imb.Config, *os.File, error) {
	var msg []byte
	var file *os.File
	if world.Rank() == 0 {
		var a agreed
		cfg, err := resolve(suite, args, world.Size())
		if err == nil && cfg.JSON != "" {
			file, err = os.OpenFile(cfg.JSON, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
			if err != nil {
				err = fmt.Errorf("-json: %w", err)
			}
		}
		if err != nil {
			a.Err = err.Error()
		} else {
			a.Config = cfg
		}
		msg, _ = json.Marshal(a)
	}
	msg, err := world.BcastBytes(msg)
	if err != nil {
		return nil, nil, err
	}
	var a agreed
	if err := json.Unmarshal(msg, &a); err != nil {
		return nil, nil, err
	}
	if a.Err != "" {
		return nil, nil, errors.New(a.Err)
	}
	return a.Config, file, nil
}

func resolve(suite *imb.Suite, args []string, size int) (*imb.Config, error) {
	opts, err := imb.ParseArgs(args)
	if err != nil {
		return nil, err
	}
	return imb.Resolve(suite, opts, size, args)
}

// runContext describes the run for every record; rank 0 gathers the hosts.
func runContext(world mpi.Comm, args []string) (result.Context, error) {
	names, err := world.GatherProcessorNames()
	if err != nil {
		return result.Context{}, err
	}
	var u syscall.Utsname
	syscall.Uname(&u)
	c := result.Context{
		Tool: "mpibench " + version, Start: time.Now().Format(time.RFC3339), Host: mpi.ProcessorName(),
		MPI: mpi.Flavor, MPIVersion: mpi.Version(), MPILibrary: mpi.LibraryVersion(),
		ThreadLevel: mpi.Provided().String(), Procs: world.Size(), Args: args,
		Machine: utsString(u.Machine[:]), System: utsString(u.Sysname[:]),
		Release: utsString(u.Release[:]), Version: utsString(u.Version[:]),
	}
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			c.Hosts = append(c.Hosts, n)
		}
	}
	return c, nil
}

func utsString(f []int8) string {
	var b strings.Builder
	for _, c := range f {
		if c == 0 {
			break
		}
		b.WriteByte(byte(c))
	}
	return b.String()
}

// fail handles an error met during the run. An error that all ranks agreed
// on (a failed write on rank 0) ends every rank with code 1; an MPI error
// seen by one rank may leave others blocked, so it aborts the job.
func fail(world mpi.Comm, stderr io.Writer, err error) int {
	var me *mpi.Error
	if errors.As(err, &me) {
		fmt.Fprintf(stderr, "mpibench: rank %d: %v\n", world.Rank(), err)
		mpi.Abort(1)
	}
	if world.Rank() == 0 {
		fmt.Fprintf(stderr, "mpibench: %v\n", err)
	}
	return 1
}

// checkCode shares rank 0's -check verdict: 3 when defects were found.
func checkCode(world mpi.Comm, bad []string) int {
	var msg []byte
	if world.Rank() == 0 && len(bad) > 0 {
		msg = []byte(strings.Join(bad, ","))
	}
	msg, err := world.BcastBytes(msg)
	if err != nil {
		return fail(world, os.Stderr, err)
	}
	if len(msg) > 0 {
		if world.Rank() == 0 {
			fmt.Fprintf(os.Stderr, "mpibench: -check found defects in %s\n", msg)
		}
		return 3
	}
	return 0
}
