//go:build cgo && mutant && !nompi

package kernel

import (
	"os"
	"strconv"
)

// CPUSecsEnv names a knob of mutant builds only: the CPU_Exploit time
// (seconds) that replaces IMB-IO's TARGET_CPU_SECS, so that the mutation
// tests can run the non-blocking IMB-IO loops at small lengths, with their
// 50 repetitions, in milliseconds instead of 5 s per sample. A release
// build has neither this file nor the knob.
const CPUSecsEnv = "MPIBENCH_CPU_SECS"

func init() {
	if v, err := strconv.ParseFloat(os.Getenv(CPUSecsEnv), 64); err == nil && v > 0 {
		cpuSecsOverride = v
	}
}
