package skampi

import (
	"fmt"
	"math"

	"mpibench/run/memcheck"
	"mpibench/suites/skampi/method"
)

// MemoryNeed is the most memory one process needs for any measurement of
// the plan:
//
//   - kernel.NewCase allocates a send and a receive buffer of
//     max(length, 1)·processes bytes each, and the MPI_Bsend variants
//     attach a buffer of the same size again (plus MPI's small
//     per-message overhead, left out here);
//   - method.Adaptive.Run keeps up to maxreps times for every point and
//     its empty measurement, and the driver keeps the times of every
//     point of the measurement until it ends, then broadcasts them from
//     the timing process as JSON text and converts them to µs for the
//     records: sampleBytes per time, for each point and one more in
//     flight. The points of a length sweep are its budget, or without
//     one the lengths of its initial grid (the refinement adds more
//     until ε is met).
//
// The sum saturates at math.MaxInt64 rather than overflow.
func MemoryNeed(c *Config, worldSize int) memcheck.Need {
	var need memcheck.Need
	for i := range c.Measurements {
		m := &c.Measurements[i]
		l, p := m.maxLength(), m.maxProcs(worldSize)
		bufs := 2.0
		if m.bsend() {
			bufs = 3
		}
		buffers := bufs * float64(max(l, 1)) * float64(p)
		points := m.maxPoints(worldSize)
		samples := sampleBytes * float64(m.MaxReps) * (float64(points) + 1)
		what := fmt.Sprintf("%s at %d bytes on %d processes", m.Name, l, p)
		if samples > buffers {
			what += fmt.Sprintf(", %d points of up to %d repetitions", points, m.MaxReps)
		}
		need = memcheck.Max(need, memcheck.Need{What: what, Bytes: saturate(buffers + samples)})
	}
	return need
}

// sampleBytes bounds the memory of one recorded time: 8 bytes as a
// float64 in the point and 8 in the record, and up to 25 bytes of JSON
// text in the broadcast, held three times over (the encoding, its C copy
// and the received Go copy).
const sampleBytes = 8 + 8 + 3*25

// saturate converts a byte count to int64, math.MaxInt64 when it is
// larger.
func saturate(b float64) int64 {
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}

// maxPoints is the number of points m measures in a job of n processes
// (for a length sweep without a budget, those of its initial grid).
func (m *Measurement) maxPoints(n int) int {
	switch m.Param {
	case OverBytes:
		if m.Budget > 0 {
			return m.Budget
		}
		if math.Log(float64(m.Hi)/float64(m.Lo))/math.Log(m.Gamma) > maxGridSteps {
			return maxGridSteps // refused by check; no Grid that long
		}
		return len(method.Grid(m.Lo, m.Hi, m.Gamma))
	case OverProcs, OverWorkpieces:
		return len(m.Points(n))
	}
	return 1
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
