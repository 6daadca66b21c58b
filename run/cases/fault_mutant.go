//go:build mutant

package cases

// This file exists only in test builds (go build -tags mutant, the build
// the tests run as mpibench-mutant): a release build has neither the fault
// hook nor this file, and ignores MPIBENCH_FAULT (fault.go).

import (
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// FaultEnv names the environment variable of the test-only fault
// injection: "KIND:RANK:PATTERN" makes rank RANK ("*" for every rank)
// misbehave when it begins a case whose key matches PATTERN (path.Match
// syntax, e.g. "mpi1/PingPong/np2/1024"). KIND is "hang" (the rank stops
// making progress, as a lost message or a deadlocked library would leave
// it) or "kill" (the rank sends itself SIGKILL, as the out-of-memory
// killer or a user's kill -9 would).
const FaultEnv = "MPIBENCH_FAULT"

// Fault is one injected fault.
type Fault struct {
	Kind    string
	Rank    int // -1 for every rank
	Pattern string
}

// EnvFault reads the fault of this process from FaultEnv.
func EnvFault() (*Fault, error) { return ParseFault(os.Getenv(FaultEnv)) }

// ParseFault reads the value of FaultEnv; "" is no fault.
func ParseFault(s string) (*Fault, error) {
	if s == "" {
		return nil, nil
	}
	f := strings.SplitN(s, ":", 3)
	if len(f) != 3 || (f[0] != "hang" && f[0] != "kill") {
		return nil, fmt.Errorf("%s=%q: want hang:RANK:PATTERN or kill:RANK:PATTERN", FaultEnv, s)
	}
	fault := &Fault{Kind: f[0], Rank: -1, Pattern: f[2]}
	if f[1] != "*" {
		r, err := strconv.Atoi(f[1])
		if err != nil || r < 0 {
			return nil, fmt.Errorf("%s=%q: rank %q is not a number or *", FaultEnv, s, f[1])
		}
		fault.Rank = r
	}
	if _, err := path.Match(fault.Pattern, ""); err != nil {
		return nil, fmt.Errorf("%s=%q: pattern: %v", FaultEnv, s, err)
	}
	return fault, nil
}

// strike carries the fault out when rank begins case key.
func (f *Fault) strike(rank int, key string) {
	if f == nil || (f.Rank >= 0 && f.Rank != rank) {
		return
	}
	if ok, _ := path.Match(f.Pattern, key); !ok {
		return
	}
	switch f.Kind {
	case "kill":
		syscall.Kill(syscall.Getpid(), syscall.SIGKILL)
	case "hang":
		for {
			time.Sleep(time.Hour)
		}
	}
}
