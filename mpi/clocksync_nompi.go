//go:build !cgo || nompi

package mpi

import "unsafe"

// The MPI-free build's clock synchronisation and window loops (nompi.go).

// WinLoop is empty without MPI.
type WinLoop struct{}

func (c Comm) ClockPair(peer int, client bool, n, m int, model [3]float64) (x, off, rtt []float64, ref [3]float64, err error) {
	return nil, nil, nil, ref, ErrNoMPI
}
func (c Comm) MaxFloat64s(v []float64) error       { return ErrNoMPI }
func (c Comm) BcastFloat64s(v []float64) error     { return ErrNoMPI }
func NewWinLoop(n, rootStep int) (*WinLoop, error) { return nil, ErrNoMPI }
func (l *WinLoop) Targets() []float64              { return nil }
func (l *WinLoop) Ends() []float64                 { return nil }
func (l *WinLoop) Lags() []float64                 { return nil }
func (l *WinLoop) Free()                           {}
func (l *WinLoop) Ptr() unsafe.Pointer             { return nil }
func Wtime() float64                               { return 0 }
