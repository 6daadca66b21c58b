package beffio

import (
	"fmt"

	"mpibench/run/memcheck"
)

// MemoryNeed is what one process allocates for the plan: a write and a
// read buffer of the largest chunk of the pattern table (M_PART for the
// scatter types).
func MemoryNeed(p *Plan) memcheck.Need {
	what := fmt.Sprintf("b_eff_io at M_PART %d bytes on %d processes", p.MPart, p.Procs)
	return memcheck.Need{What: what, Bytes: 2 * int64(MaxMem(p.Table))}
}
