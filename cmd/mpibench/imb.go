package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"mpibench/imb"
	"mpibench/mpi"
	"mpibench/report"
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

// runIMB runs one IMB suite: mpi1, ext or io.
func runIMB(suite *imb.Suite, args []string, stdout, stderr io.Writer) int {
	return runMPI(mpiCommand[*imb.Config]{
		name:  suite.Name,
		usage: imbUsage(suite),
		parse: func(args []string, size int, _ bool) (*imb.Config, string, error) {
			cfg, err := resolve(suite, args, size)
			if err != nil {
				return nil, "", err
			}
			return cfg, cfg.JSON, nil
		},
		run: func(cfg *imb.Config, env *mpiEnv) int { return measureIMB(suite, cfg, env) },
	}, args, stdout, stderr)
}

func resolve(suite *imb.Suite, args []string, size int) (*imb.Config, error) {
	opts, err := imb.ParseArgs(args)
	if err != nil {
		return nil, err
	}
	return imb.Resolve(suite, opts, size, args)
}

// measureIMB runs the benchmarks of cfg and prints their tables.
func measureIMB(suite *imb.Suite, cfg *imb.Config, env *mpiEnv) int {
	if code, ok := checkMemory(env, imb.MemoryNeed(cfg, env.world.Size()), 0); !ok {
		return code
	}
	if suite == imb.IOSuite {
		if code, ok := checkIODisk(cfg, env); !ok {
			return code
		}
		onInterrupt(imb.RemoveFiles)
	}
	var out *imb.Output
	if env.world.Rank() == 0 {
		out = &imb.Output{Text: report.NewIMBText(env.stdout)}
	}
	env.resumeNote(false)
	bad, err := imb.NewDriver(cfg, env.ctx, out, env.guard).Run()
	var usage *imb.UsageError
	if errors.As(err, &usage) {
		// Every rank has it, each with its own message.
		fmt.Fprintf(env.stderr, "mpibench %s: %v\n", suite.Name, err)
		return 2
	}
	if err != nil {
		return env.fail(err)
	}
	return checkCode(env.world, bad)
}

// checkIODisk refuses an IMB-IO run whose files may need more than the
// file system of -iodir has free or than -disk allows, after the check
// that every rank can create files there (which names a missing or
// unwritable directory).
func checkIODisk(cfg *imb.Config, env *mpiEnv) (code int, ok bool) {
	if err := imb.CheckIODir(cfg.IODir); err != nil {
		var usage *imb.UsageError
		if errors.As(err, &usage) {
			fmt.Fprintf(env.stderr, "mpibench %s: %v\n", env.name, err)
			return 2, false
		}
		return env.fail(err), false
	}
	return checkDisk(env, cfg.IODir, cfg.Disk, func(int64) (string, int64) {
		return imb.IODiskNeed(cfg, env.world.Size())
	})
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
