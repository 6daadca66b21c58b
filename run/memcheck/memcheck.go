// Package memcheck compares what a benchmark plan will allocate per
// process with the memory a process of this node may take, before any
// buffer is allocated (issue 7, item 4).
package memcheck

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"mpibench/mpi"
)

const mib = 1 << 20

// Need is the memory one process needs for the largest allocation of a
// plan, and what makes it: "Alltoall at 4194304 bytes on 4 processes".
type Need struct {
	What  string
	Bytes int64
}

// Max is the larger of two needs.
func Max(a, b Need) Need {
	if b.Bytes > a.Bytes {
		return b
	}
	return a
}

// Available is the memory in bytes one process of world may take on its
// node: MemAvailable divided by the processes of world on the node, the
// smallest over all nodes, so that every rank reaches the same verdict.
func Available(world mpi.Comm) (int64, error) {
	local, err := world.LocalSize()
	if err != nil {
		return 0, err
	}
	node, err := NodeAvailable()
	if err != nil {
		return 0, err
	}
	// AllreduceMax over int: the minimum is the maximum of the negatives,
	// in KiB so that it fits an int everywhere.
	neg, err := world.AllreduceMax(-int(node / int64(max(local, 1)) / 1024))
	return int64(-neg) * 1024, err
}

// NodeAvailable is MemAvailable of /proc/meminfo in bytes, or what the
// test hook of a mutant build fakes (fake_mutant.go).
func NodeAvailable() (int64, error) {
	if b, ok, err := fakeAvailable(); ok {
		return b, err
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	return parseMemAvailable(f)
}

// parseMemAvailable reads the "MemAvailable: N kB" line of /proc/meminfo.
func parseMemAvailable(f *os.File) (int64, error) {
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("/proc/meminfo: %q", sc.Text())
			}
			return kb * 1024, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("/proc/meminfo has no MemAvailable line")
}

// NodeLimit and MemLimit say where a limit comes from, in Verdict.
const (
	NodeLimit = "this node has %s per process available"
	MemLimit  = "-mem allows %s per process"
)

// Verdict is the message for a need above the limit, "" when it fits.
// limit is NodeLimit or MemLimit.
func Verdict(n Need, avail int64, limit string) string {
	if n.Bytes <= avail {
		return ""
	}
	return fmt.Sprintf("%s needs %s per process; "+limit, n.What, MiB(n.Bytes), MiB(avail))
}

// MiB writes bytes as "32.0 MiB".
func MiB(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/mib) }

// PerProcessMB is the memory per process in MB (2^20 bytes) that b_eff
// and b_eff_io size their buffers by: mem when it is given (-mem), else
// the physical memory of the host divided by the processes of world on
// it, the smallest over all hosts so that the buffers fit everywhere.
func PerProcessMB(world mpi.Comm, mem int) (int, error) {
	if mem > 0 {
		return mem, nil
	}
	local, err := world.LocalSize()
	if err != nil {
		return 0, err
	}
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0, fmt.Errorf("sysinfo: %w", err)
	}
	phys := uint64(si.Totalram) * uint64(si.Unit)
	mb := max(1, int(phys/mib/uint64(max(local, 1))))
	neg, err := world.AllreduceMax(-mb)
	return -neg, err
}
