package mpijob

import (
	"fmt"
	"math"

	"mpibench/run/memcheck"
)

// CheckMemory stops the run before any buffer is allocated when need is
// more than a process of the smallest node may take, or more than -mem
// (memMB > 0, b_eff and b_eff_io). Every rank computes the same need and
// gets the same min-reduced availability, so all return the same verdict:
// ok, or exit code 2 with rank 0's message.
func CheckMemory(env *Env, need memcheck.Need, memMB int) (code int, ok bool) {
	avail, err := memcheck.Available(env.World)
	if err != nil {
		return env.Fail(err), false
	}
	return CheckAvailable(env, need, avail, memMB)
}

// CheckAvailable is CheckMemory against avail, memcheck.Available's
// figure that a suite has already read to fit its plan to it (IMB's
// lengths): the plan and the check see the same number.
func CheckAvailable(env *Env, need memcheck.Need, avail int64, memMB int) (code int, ok bool) {
	msg := memcheck.Verdict(need, avail, memcheck.NodeLimit)
	if msg == "" && memMB > 0 && int64(memMB) <= math.MaxInt64/mb {
		// -mem is bounded far below the overflow; a larger one limits nothing.
		msg = memcheck.Verdict(need, int64(memMB)*mb, memcheck.MemLimit)
	}
	if msg == "" {
		return 0, true
	}
	if env.World.Rank() == 0 {
		_, _ = fmt.Fprintf(env.Stderr, "mpibench %s: %s\n", env.Name, msg)
	}
	return 2, false
}

// mb is b_eff's MB, the unit of -mem.
const mb = 1 << 20

// SizedPlan is the first step of b_eff and b_eff_io: the plan made for
// the memory per process (memMB, -mem, or the host's share of its
// physical memory) and the check that its buffers fit. ok is false with
// the exit code when the run stops here.
func SizedPlan[P any](env *Env, memMB int, plan func(mb int) (P, error), need func(P) memcheck.Need) (p P, code int, ok bool) {
	mem, err := memcheck.PerProcessMB(env.World, memMB)
	if err == nil {
		p, err = plan(mem)
	}
	if err != nil {
		return p, env.Fail(err), false
	}
	code, ok = CheckMemory(env, need(p), memMB)
	return p, code, ok
}
