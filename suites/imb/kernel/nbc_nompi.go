//go:build !cgo || nompi

package kernel

import "mpibench/mpi"

// The IMB-NBC loops without MPI: never reached (Init fails first).

func (r *NBCRun) Exec(check bool) (NBCTimes, error) { return NBCTimes{}, mpi.ErrNoMPI }
func NBCCPURate() (rate, mflops float64)            { return 0, 0 }
func NBCCPU(n int64)                                {}

// PersistAPI: no MPI, no persistent collectives.
func PersistAPI() string { return "" }
