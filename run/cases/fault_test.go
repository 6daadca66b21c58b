//go:build !mutant

package cases

import "testing"

// A release build has no fault hook: whatever MPIBENCH_FAULT says, even
// what a mutant build refuses, no fault and no error.
func TestReleaseHasNoFault(t *testing.T) {
	for _, v := range []string{"hang:*:*", "kill:0:*", "nonsense"} {
		t.Setenv("MPIBENCH_FAULT", v)
		if f, err := EnvFault(); f != nil || err != nil {
			t.Errorf("MPIBENCH_FAULT=%q: %+v %v", v, f, err)
		}
	}
}
