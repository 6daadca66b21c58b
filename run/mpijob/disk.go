package mpijob

import (
	"fmt"

	"mpibench/run/diskcheck"
)

// CheckDisk stops the run before anything is written when the files of
// the plan may need more than the file system of dir has free, or more
// than the limit (-disk, given as flag > 0, or min(16 GiB, half the free
// space)). need gets the limit, so that a plan without a size of its own
// (b_eff_io's time-driven loops) can bound itself by it, and returns what
// the plan is and what it may need. Every rank sees the smallest free
// space of all and computes the same need: all return the same verdict,
// ok or exit code 2 with rank 0's message naming the need and the space.
func CheckDisk(env *Env, dir string, flag int64, need func(limit int64) (string, int64)) (code int, ok bool) {
	free, err := diskcheck.FreeOnAll(env.World, dir)
	if err != nil {
		return env.Fail(err), false
	}
	what, bytes := need(diskcheck.Limit(flag, free))
	if msg := diskcheck.Verdict(what, dir, bytes, free, flag); msg != "" {
		if env.World.Rank() == 0 {
			_, _ = fmt.Fprintf(env.Stderr, "mpibench %s: %s\n", env.Name, msg)
		}
		return 2, false
	}
	if err := diskcheck.AfterCheck(env.World, dir); err != nil {
		return env.Fail(err), false
	}
	return 0, true
}
