package main

import (
	"errors"
	"fmt"
	"io"
	"mpibench/mpijob"

	"mpibench/imb"
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
	return mpijob.Run(mpijob.Command[*imb.Config]{
		Name:  suite.Name,
		Usage: imbUsage(suite),
		Parse: func(args []string, size int, _ bool) (*imb.Config, string, error) {
			cfg, err := resolve(suite, args, size)
			if err != nil {
				return nil, "", err
			}
			return cfg, cfg.JSON, nil
		},
		Run: func(cfg *imb.Config, env *mpijob.Env) int { return measureIMB(suite, cfg, env) },
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
func measureIMB(suite *imb.Suite, cfg *imb.Config, env *mpijob.Env) int {
	if code, ok := mpijob.CheckMemory(env, imb.MemoryNeed(cfg, env.World.Size()), 0); !ok {
		return code
	}
	if suite == imb.IOSuite {
		if code, ok := checkIODisk(cfg, env); !ok {
			return code
		}
		mpijob.OnInterrupt(imb.RemoveFiles)
	}
	var out *imb.Output
	if env.World.Rank() == 0 {
		out = &imb.Output{Text: report.NewIMBText(env.Stdout)}
	}
	env.ResumeNote(false)
	bad, err := imb.NewDriver(cfg, env.Ctx, out, env.Guard).Run()
	var usage *imb.UsageError
	if errors.As(err, &usage) {
		// Every rank has it, each with its own message.
		_, _ = fmt.Fprintf(env.Stderr, "mpibench %s: %v\n", suite.Name, err)
		return 2
	}
	if err != nil {
		return env.Fail(err)
	}
	return mpijob.CheckCode(env.World, bad)
}

// checkIODisk refuses an IMB-IO run whose files may need more than the
// file system of -iodir has free or than -disk allows, after the check
// that every rank can create files there (which names a missing or
// unwritable directory).
func checkIODisk(cfg *imb.Config, env *mpijob.Env) (code int, ok bool) {
	if err := imb.CheckIODir(cfg.IODir); err != nil {
		var usage *imb.UsageError
		if errors.As(err, &usage) {
			_, _ = fmt.Fprintf(env.Stderr, "mpibench %s: %v\n", env.Name, err)
			return 2, false
		}
		return env.Fail(err), false
	}
	return mpijob.CheckDisk(env, cfg.IODir, cfg.Disk, func(int64) (string, int64) {
		return imb.IODiskNeed(cfg, env.World.Size())
	})
}
