//go:build cgo && !nompi

package mpi

// #include <stdlib.h>
// #include "window.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// WinLoop holds the arrays of a window-synchronised loop (window.h) in C
// memory, allocated before the loop: the local start time of every
// repetition, set by the caller, and the end times and start lags the
// loop stores.
type WinLoop struct {
	w   C.mb_win
	mem unsafe.Pointer
	n   int
}

// NewWinLoop allocates a loop of n repetitions; rootStep moves the root
// of a rooted call by that many ranks each repetition.
func NewWinLoop(n, rootStep int) (*WinLoop, error) {
	if n < 1 {
		return nil, fmt.Errorf("window loop of %d repetitions", n)
	}
	mem := C.calloc(C.size_t(3*n), 8)
	if mem == nil {
		return nil, fmt.Errorf("cannot allocate a window loop of %d repetitions", n)
	}
	l := &WinLoop{mem: mem, n: n}
	d := (*[1 << 30]C.double)(mem)
	l.w.target, l.w.end, l.w.lag = &d[0], &d[n], &d[2*n]
	l.w.nrep, l.w.root_step = C.int(n), C.int(rootStep)
	return l, nil
}

func (l *WinLoop) view(i int) []float64 {
	return unsafe.Slice((*float64)(unsafe.Add(l.mem, 8*i*l.n)), l.n)
}

// Targets is the local start time of every repetition (to be set).
func (l *WinLoop) Targets() []float64 { return l.view(0) }

// Ends is the local end time of every repetition after a run.
func (l *WinLoop) Ends() []float64 { return l.view(1) }

// Lags is how late this rank began every repetition, seconds: its first
// clock reading at or after the start time minus that time.
func (l *WinLoop) Lags() []float64 { return l.view(2) }

// Free releases the arrays.
func (l *WinLoop) Free() {
	if l.mem != nil {
		C.free(l.mem)
		l.mem = nil
	}
}

// Ptr is the loop's mb_win (window.h) for a kernel package's window loop,
// whose C declares the same struct from the same header.
func (l *WinLoop) Ptr() unsafe.Pointer { return unsafe.Pointer(&l.w) }
