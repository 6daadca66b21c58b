package main

import (
	"fmt"
	"io"
	"mpibench/mpijob"
	"strings"
	"syscall"

	"mpibench/beff"
	"mpibench/mpi"
	"mpibench/report"
	"mpibench/result"
)

// runBeff runs the effective-bandwidth benchmark.
func runBeff(args []string, stdout, stderr io.Writer) int {
	return mpijob.Run(mpijob.Command[beff.Options]{Name: "beff", Usage: beff.Usage, Parse: parseBeff, Run: measureBeff},
		args, stdout, stderr)
}

func parseBeff(args []string, size int, _ bool) (beff.Options, string, error) {
	o, err := beff.ParseArgs(args)
	if err == nil && size < 2 {
		err = beff.Usagef("b_eff needs at least 2 processes (got %d)", size)
	}
	return o, o.JSON, err
}

func measureBeff(o beff.Options, env *mpijob.Env) int {
	mem, err := beffMemory(env.World, o.Mem)
	if err != nil {
		return env.Fail(err)
	}
	plan, err := beff.NewPlan(o, env.World.Size(), mem)
	if err != nil {
		return env.Fail(err)
	}
	if code, ok := mpijob.CheckMemory(env, beff.MemoryNeed(plan), o.Mem); !ok {
		return code
	}
	env.ResumeNote(false)
	recs, werr, err := beff.Run(plan, env.World, env.Ctx, beffUname(), beff.Out{Cases: env.Cases, Sink: env.Sink()})
	if err != nil {
		// An MPI or memory error of this rank.
		return env.Abort(err)
	}
	code := env.Finish(werr, func() error { return report.BeffText(env.Stdout, recs) })
	if code != 0 || !o.Check {
		return code
	}
	return mpijob.CheckCode(env.World, beffDefects(recs))
}

// beffDefects names the measurements (rank 0's records) whose data check
// found wrong bytes: the first three and how many more.
func beffDefects(recs []result.Record) []string {
	var bad []string
	n := 0
	for _, r := range recs {
		if r.Defects > 0 {
			if n++; n <= 3 {
				bad = append(bad, fmt.Sprintf("%s (%.0f wrong bytes)", r.Case, r.Defects))
			}
		}
	}
	if n > 3 {
		bad = append(bad, fmt.Sprintf("and %d more measurements", n-3))
	}
	return bad
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

// beffUname is what uname -a prints: system, node, release, version,
// machine (and "GNU/Linux" on Linux, as coreutils adds).
func beffUname() string {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		return "unknown"
	}
	f := []string{mpijob.UtsString(u.Sysname[:]), mpijob.UtsString(u.Nodename[:]), mpijob.UtsString(u.Release[:]),
		mpijob.UtsString(u.Version[:]), mpijob.UtsString(u.Machine[:])}
	if f[0] == "Linux" {
		f = append(f, "GNU/Linux")
	}
	return strings.Join(f, " ")
}
