// Package diskcheck keeps the I/O benchmarks (IMB-IO, b_eff_io) from
// filling a disk (issue 12, section 3): the space a plan can need is
// compared with the free space of the target directory's file system
// before anything is written, and a file system that runs full during
// the run is noticed even where the MPI library hides the failed writes.
package diskcheck

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall"

	"mpibench/mpi"
)

// DefaultLimit bounds the files of a run when -disk is not given, together
// with half the free space (see Limit): 16 GiB, so that a default run on a
// laptop leaves at least half of its free space and never more than 16 GiB
// of files at once.
const DefaultLimit = 16 << 30

// Free is the space in bytes an unprivileged user may still write to the
// file system of dir (statvfs: f_bavail · f_frsize).
func Free(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("%s: %w", dir, err)
	}
	unit := st.Frsize
	if unit <= 0 {
		unit = st.Bsize
	}
	return sat(int64(st.Bavail), unit), nil
}

// sat is a·b for non-negative a and b, saturating at math.MaxInt64.
func sat(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// FreeOnAll is the smallest free space of dir over the ranks of world, so
// that every rank reaches the same verdict (a node-local -iodir differs
// from node to node). A rank that cannot stat dir counts as 0 free.
func FreeOnAll(world mpi.Comm, dir string) (int64, error) {
	free, err := Free(dir)
	if err != nil {
		free = 0
	}
	// AllreduceMax over int: the minimum is the maximum of the negatives,
	// in KiB so that it fits a C int.
	kib := min(free/1024, math.MaxInt32)
	neg, aerr := world.AllreduceMax(-int(kib))
	return int64(-neg) * 1024, aerr
}

// Limit is the most a run may write: -disk when given (flag > 0), else
// min(DefaultLimit, free/2).
func Limit(flag, free int64) int64 {
	if flag > 0 {
		return flag
	}
	return min(DefaultLimit, free/2)
}

// Verdict is the message for a plan that needs more than the file system
// has free or than the limit allows, "" when it fits. what names the plan
// ("b_eff_io on 2 processes"), flag is -disk (0 when not given).
func Verdict(what, dir string, need, free, flag int64) string {
	switch {
	case need > free:
		return fmt.Sprintf("%s needs up to %s of files in %s; its file system has %s free (nothing was written)",
			what, Bytes(need), dir, Bytes(free))
	case flag > 0 && need > flag:
		return fmt.Sprintf("%s needs up to %s of files in %s; -disk allows %s (nothing was written)",
			what, Bytes(need), dir, Bytes(flag))
	case flag == 0 && need > Limit(0, free):
		return fmt.Sprintf("%s needs up to %s of files in %s; without -disk a run takes at most "+
			"min(16 GiB, half the free space %s) = %s (nothing was written; -disk sets the limit)",
			what, Bytes(need), dir, Bytes(free), Bytes(Limit(0, free)))
	}
	return ""
}

// Full tells whether the file system of dir has less than room bytes
// free: a write of room bytes may have failed for want of space, whatever
// the MPI library reported. Open MPI 4.1's MPI_File_write_all returns
// MPI_SUCCESS with the full count when the file system is full (it only
// prints "No space left on device"), so the benchmarks look themselves.
func Full(dir string, room int64) (bool, int64) {
	free, err := Free(dir)
	if err != nil {
		return false, 0
	}
	return free < room, free
}

// Bytes writes n as "12.3 MiB (12897484 bytes)".
func Bytes(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v, u = v/1024, u+1
	}
	return fmt.Sprintf("%.1f %s (%d bytes)", v, units[u], n)
}

// ParseSize reads a -disk value: a whole number of bytes with an optional
// suffix k, M, G, T or P (powers of 1024, case-insensitive, "KiB", "kB"
// and "K" alike), e.g. 500M, 2G, 1073741824. It must be at least 1 byte.
func ParseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "ib"), "b")
	shift := 0
	if i := strings.IndexAny(t, "kmgtp"); i >= 0 && i == len(t)-1 {
		shift = 10 * (1 + strings.IndexByte("kmgtp", t[i]))
		t = t[:i]
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 1 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%q: want a number of bytes of at least 1 with an optional suffix K, M, G, T or P "+
			"(powers of 1024), at most 8 EiB", s)
	}
	return n << shift, nil
}

// Flag is the setter of a -disk flag: ParseSize into dst.
func Flag(dst *int64) func(string) error {
	return func(v string) error {
		n, err := ParseSize(v)
		*dst = n
		return err
	}
}

// afterCheck is a test hook, set only in a build with the tag "mutant"
// (fill_mutant.go): it fills the file system after the disk check passed,
// so that the tests can make a run meet a full disk mid-run.
var afterCheck func(dir string) error

// AfterCheck runs the test hook on rank 0 once the disk check passed, all
// ranks waiting for it; in a release build there is no hook and it does
// nothing.
func AfterCheck(world mpi.Comm, dir string) error {
	if afterCheck == nil {
		return nil
	}
	var err error
	if world.Rank() == 0 {
		err = afterCheck(dir)
	}
	if berr := world.Barrier(); err == nil {
		err = berr
	}
	if err != nil {
		return &mpi.LocalError{Err: err}
	}
	return nil
}
