//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// The IMB family's kernels without MPI: they compile, and Init has failed
// before any of them could be reached.

func (r *Run) Exec() (float64, error)              { return 0, mpi.ErrNoMPI }
func (r *Run) ExecCheck() (float64, int, error)    { return 0, 0, mpi.ErrNoMPI }
func (r *Run) ExecWindow(l *mpi.WinLoop) error     { return mpi.ErrNoMPI }
func (r *NBCRun) ExecWindow(l *mpi.WinLoop) error  { return mpi.ErrNoMPI }
func (r *BigRun) Exec() (float64, error)           { return 0, mpi.ErrNoMPI }
func (r *BigRun) ExecCheck() (float64, int, error) { return 0, 0, mpi.ErrNoMPI }
func (r *RMARun) Exec() (float64, error)           { return 0, mpi.ErrNoMPI }
func (r *RMARun) Check() (float64, int, error)     { return 0, 0, mpi.ErrNoMPI }
func (r *WinRun) Exec() (float64, error)           { return 0, mpi.ErrNoMPI }
func (r *FileRun) Exec() (float64, error)          { return 0, mpi.ErrNoMPI }
func (r *FileRun) ExecOverlapped() (float64, error) {
	return 0, mpi.ErrNoMPI
}

func OpenCloseRun(c mpi.Comm, name string, reps, barriers int) (float64, error) {
	return 0, mpi.ErrNoMPI
}
func CalibrateCPUExploit(target float64) (secs, mflops float64)    { return 0, 0 }
func PatternReduce(b mpi.Buffer, t DataType, rank int)             {}
func BadReduce(got []byte, t DataType, np int, rep, off int64) int { return len(got) }
