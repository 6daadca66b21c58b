//go:build cgo && mutant && !nompi

package mpi

// This file exists only in test builds (go build -tags mutant): it compiles
// the C layer with MB_MUTANTS, which makes the broken kernels of mutant.h
// reachable, and picks one from the environment. A release build has
// neither this file nor the mutant branches.

// #cgo CFLAGS: -DMB_MUTANTS
// #include "mutant.h"
import "C"

import (
	"fmt"
	"os"
	"sort"
	"strconv"
)

// MutantEnv names the environment variable that picks a mutant.
const MutantEnv = "MPIBENCH_MUTANT"

// mutants maps the names a test may put in MutantEnv to mutant.h's ids.
var mutants = map[string]C.int{
	"wrong-rank":      C.MB_MUT_WRONG_RANK,
	"no-rotation":     C.MB_MUT_NO_ROTATION,
	"short-reduce":    C.MB_MUT_SHORT_REDUCE,
	"displ":           C.MB_MUT_DISPL,
	"first-only":      C.MB_MUT_FIRST_ONLY,
	"rma-offset":      C.MB_MUT_RMA_OFFSET,
	"io-offset":       C.MB_MUT_IO_OFFSET,
	"beff-peer":       C.MB_MUT_BEFF_PEER,
	"beffio-offset":   C.MB_MUT_BEFFIO_OFFSET,
	"mpi-error":       C.MB_MUT_MPI_ERROR,
	"osu-short":       C.MB_MUT_OSU_SHORT,
	"osu-coll-short":  C.MB_MUT_OSU_COLL_SHORT,
	"osu-stale":       C.MB_MUT_OSU_STALE,
	"osu-persist-buf": C.MB_MUT_OSU_PERSIST_BUF,
	"osu-nbr-reverse": C.MB_MUT_OSU_NBR_REVERSE,
	"osu-w-displ":     C.MB_MUT_OSU_W_DISPL,
	"osu-pcoll-buf":   C.MB_MUT_OSU_PCOLL_BUF,
	"osu-acc-op":      C.MB_MUT_OSU_ACC_OP,
	"osu-acc-short":   C.MB_MUT_OSU_ACC_SHORT,
	"osu-cas-swap":    C.MB_MUT_OSU_CAS_SWAP,
	"mt-swap-comm":    C.MB_MUT_MT_SWAP_COMM,
	"rma-half":        C.MB_MUT_RMA_HALF,
	"fixed-root":      C.MB_MUT_FIXED_ROOT,
	"no-offset":       C.MB_MUT_NO_OFFSET,
	"skew":            C.MB_MUT_SKEW,
	"clock":           C.MB_MUT_CLOCK,
}

// Mutants lists the mutant names, sorted.
func Mutants() []string {
	names := make([]string, 0, len(mutants))
	for n := range mutants {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Mutant is the name of the mutant this process plays ("" for none).
var Mutant string

func init() {
	name := os.Getenv(MutantEnv)
	if name == "" {
		return
	}
	id, ok := mutants[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "mpibench: %s=%q: unknown mutant (have %v)\n", MutantEnv, name, Mutants())
		os.Exit(2)
	}
	C.mb_mutant = id
	Mutant = name
	if us, err := strconv.ParseFloat(os.Getenv(SkewEnv), 64); err == nil && us > 0 {
		C.mb_skew_delay = C.double(us * 1e-6)
	}
	if s, err := strconv.ParseFloat(os.Getenv(ClockOffsetEnv), 64); err == nil {
		C.mb_clock_offset = C.double(s)
	}
	if d, err := strconv.ParseFloat(os.Getenv(ClockDriftEnv), 64); err == nil {
		C.mb_clock_drift = C.double(d)
	}
}

// ClockTruth is the true time of a reading t of Wtime on this rank under
// the clock mutant (false without it), the clock of world rank 0, and its
// rate: true seconds per second of this rank's clock.
func ClockTruth(t float64) (truth, rate float64, ok bool) {
	if Mutant != "clock" {
		return 0, 0, false
	}
	var r C.double
	truth = float64(C.mb_mutant_clock_truth(C.double(t), &r))
	return truth, float64(r), true
}

// ClockOffsetEnv and ClockDriftEnv are the clock mutant's offset of world
// rank 1's window clock, in seconds, and its drift, in seconds per second.
const (
	ClockOffsetEnv = "MPIBENCH_CLOCK_OFFSET_S"
	ClockDriftEnv  = "MPIBENCH_CLOCK_DRIFT"
)

// SkewEnv names the skew mutant's delay of rank 1 before each collective
// call, in µs.
const SkewEnv = "MPIBENCH_SKEW_US"
