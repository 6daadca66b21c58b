//go:build !cgo || nompi

package mpi

// OSU's kernels without MPI: they compile, and Init has failed before any
// of them could be reached.

type OSUKind int

const (
	OSULatency OSUKind = iota
	OSUBw
	OSUBibw
	OSUMbwMr
	OSUMultiLat
	OSULatMT
)

type OSUDDT struct {
	Kind          string
	Stride, Block int
	Displs        []int
	Blocks        []int
}

type OSUSpec struct {
	Kind     OSUKind
	Type     int
	TypeSize int
	Elements int64
	DDT      *OSUDDT
	Iters    int
	Skip     int
	Window   int
	VWarm    int
	Pairs    int
	Multiple bool
	Check    bool
	Samples  bool
	Threads  int
	Tagged   bool
}

type OSUResult struct {
	Time    float64
	Samples []float64
	Errors  int
}

func OSURun(c Comm, s *OSUSpec) (OSUResult, error) { return OSUResult{}, ErrNoMPI }
