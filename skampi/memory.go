package skampi

import (
	"fmt"
	"strings"

	"mpibench/internal/memcheck"
)

// MemoryNeed is the most memory one process needs for any measurement of
// the plan: mpi.NewSkampiCase allocates a send and a receive buffer of
// max(length, 1)·processes bytes each, and the MPI_Bsend variants attach
// a buffer of the same size again (plus MPI's small per-message overhead,
// left out here).
func MemoryNeed(c *Config, worldSize int) memcheck.Need {
	var need memcheck.Need
	for i := range c.Measurements {
		m := &c.Measurements[i]
		l, p := m.maxLength(), m.maxProcs(worldSize)
		bufs := int64(2)
		if strings.EqualFold(m.Op, "Bsend_Recv") || strings.EqualFold(m.Op, "Bsend") {
			bufs = 3
		}
		need = memcheck.Max(need, memcheck.Need{
			What:  fmt.Sprintf("%s at %d bytes on %d processes", m.Name, l, p),
			Bytes: bufs * int64(max(l, 1)) * int64(p),
		})
	}
	return need
}

// maxLength is the longest message m sends.
func (m *Measurement) maxLength() int {
	if m.Param == OverBytes {
		return m.Hi
	}
	return m.length()
}

// maxProcs is the largest communicator m runs on in a job of n processes.
func (m *Measurement) maxProcs(n int) int {
	switch {
	case m.Pattern == PingPong:
		return 2
	case m.Param == OverProcs && m.Hi > 0:
		return min(m.Hi, n)
	case m.Param != OverProcs && m.Procs > 0:
		return min(m.Procs, n)
	}
	return n
}
