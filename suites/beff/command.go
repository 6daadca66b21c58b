package beff

import (
	"fmt"

	"mpibench/analysis/result"
	"mpibench/run/mpijob"
	"mpibench/suites/beff/befftext"
)

// Command is mpibench beff as mpibench's registry knows it.
var Command = mpijob.Command[Options]{Name: result.SuiteBeff, Usage: Usage, Parse: parseCommand, Run: runCommand}.
	Entry(result.SuiteBeff+" [flags]", "run b_eff, the effective bandwidth")

func parseCommand(args []string, size int, _ bool) (Options, string, error) {
	o, err := ParseArgs(args)
	if err == nil && size < 2 {
		err = Usagef("b_eff needs at least 2 processes (got %d)", size)
	}
	return o, o.JSON, err
}

func runCommand(o Options, env *mpijob.Env) int {
	plan, code, ok := mpijob.SizedPlan(env, o.Mem, func(mb int) (*Plan, error) {
		return NewPlan(o, env.World.Size(), mb)
	}, MemoryNeed)
	if !ok {
		return code
	}
	env.ResumeNote(false)
	recs, werr, err := Run(plan, env.World, env.Ctx, mpijob.Uname(), Out{Cases: env.Cases, Sink: env.Sink()})
	if err != nil {
		// An MPI or memory error of this rank.
		return env.Abort(err)
	}
	code = env.Finish(werr, func() error { return befftext.BeffText(env.Stdout, recs) })
	if code != 0 || !o.Check {
		return code
	}
	return mpijob.CheckCode(env.World, "-check", defects(recs))
}

// defects names the measurements (rank 0's records) whose data check
// found wrong bytes: the first three and how many more.
func defects(recs []result.Record) []string {
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
