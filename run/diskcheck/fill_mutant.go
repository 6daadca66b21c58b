//go:build mutant

package diskcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// FillEnv names the test hook of the mutant build: with
// MPIBENCH_DISK_FILL=N, rank 0 fills the file system of the benchmark
// directory up to N bytes free right after the disk check passed, with
// the file FillName there (the test removes it). A release build has
// neither the hook nor this file.
const FillEnv = "MPIBENCH_DISK_FILL"

// FillName is the filler file's name in the benchmark directory.
const FillName = ".mpibench-test-filler"

func init() { afterCheck = fill }

func fill(dir string) error {
	v := os.Getenv(FillEnv)
	if v == "" {
		return nil
	}
	leave, err := strconv.ParseInt(v, 10, 64)
	if err != nil || leave < 0 {
		return fmt.Errorf("%s=%q: want a number of bytes", FillEnv, v)
	}
	free, err := Free(dir)
	if err != nil || free <= leave {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, FillName), os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	err = syscall.Fallocate(int(f.Fd()), 0, 0, free-leave)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
