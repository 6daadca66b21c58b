//go:build !mutant

package cases

// Fault is the test-only fault injection of mutant builds
// (fault_mutant.go). A release build has none: it never reads
// MPIBENCH_FAULT, and no case it runs is made to hang or die.
type Fault struct{}

// EnvFault is the fault of this process: none in a release build.
func EnvFault() (*Fault, error) { return nil, nil }

func (*Fault) strike(int, string) {}
