//go:build !cgo || nompi

package mpi

func BigCountMode(n int64, floats bool) string { return "" }

// View is bigcount.go's, without MPI.
func (b Buffer) View(off, n int) Buffer { return b }

// OSUBig is bigcount.go's, without MPI.
type OSUBig struct {
	Kind                       OSUKind
	Bytes                      int64
	Iters, Skip, Window, VWarm int
	Check, Samples             bool
}

func OSUBigKind(k OSUKind) bool { return k == OSULatency || k == OSUBw || k == OSUBibw }

func OSUBigRun(c Comm, s *OSUBig) (OSUResult, string, error) { return OSUResult{}, "", ErrNoMPI }

func OSUCollBigRun(c Comm, s *OSUCollBig) (OSUCollTimes, string, error) {
	return OSUCollTimes{}, "", ErrNoMPI
}
