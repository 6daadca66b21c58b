//go:build mutant

package memcheck

// This file exists only in test builds (go build -tags mutant, the build
// the tests run as mpibench-mutant): a release build has neither the
// memory hook nor this file, and ignores FakeEnv (fake.go).

import (
	"fmt"
	"os"
	"strconv"
)

// FakeEnv is the test hook of the mutant build: set to a number of MB
// (2^20 bytes), it replaces the node's MemAvailable, so that tests can
// trigger the check without a huge machine.
const FakeEnv = "MPIBENCH_FAKE_MEM_MB"

// fakeAvailable is FakeEnv in bytes, ok when it is set.
func fakeAvailable() (bytes int64, ok bool, err error) {
	s := os.Getenv(FakeEnv)
	if s == "" {
		return 0, false, nil
	}
	mb, err := strconv.ParseFloat(s, 64)
	if err != nil || mb < 0 {
		return 0, true, fmt.Errorf("%s=%q: not a number of MB", FakeEnv, s)
	}
	return int64(mb * mib), true, nil
}
