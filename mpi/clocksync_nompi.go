//go:build !cgo || nompi

package mpi

import "unsafe"

// The MPI-free build's window loops and clock (nompi.go); the clock
// synchronisation's exchanges are in run/clocksync/kernel.

// WinLoop is empty without MPI.
type WinLoop struct{}

func NewWinLoop(n, rootStep int) (*WinLoop, error) { return nil, ErrNoMPI }
func (l *WinLoop) Targets() []float64              { return nil }
func (l *WinLoop) Ends() []float64                 { return nil }
func (l *WinLoop) Lags() []float64                 { return nil }
func (l *WinLoop) Free()                           {}
func (l *WinLoop) Ptr() unsafe.Pointer             { return nil }
func Wtime() float64                               { return 0 }
