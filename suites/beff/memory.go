package beff

import (
	"fmt"

	"mpibench/run/memcheck"
	"mpibench/suites/beff/kernel"
)

// MemoryNeed is what one process allocates for the plan: a send and a
// receive buffer of one page-aligned L_max slot per step of its longest
// pattern (and kernel.Pad bytes), the largest over all ranks so that
// every rank agrees.
func MemoryNeed(p *Plan) memcheck.Need {
	slot := (p.LMax + 4095) / 4096 * 4096
	steps := 1
	for _, pat := range p.Patterns {
		steps = max(steps, pat.MaxSteps())
	}
	what := fmt.Sprintf("b_eff at L_max %d bytes on %d processes", p.LMax, p.Procs)
	return memcheck.Need{What: what, Bytes: 2 * (int64(steps)*int64(slot) + kernel.Pad)}
}
