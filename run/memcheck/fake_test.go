//go:build !mutant

package memcheck

import "testing"

// A release build has no memory hook: whatever MPIBENCH_FAKE_MEM_MB says,
// even what a mutant build refuses, the node's MemAvailable counts.
func TestReleaseHasNoFake(t *testing.T) {
	for _, v := range []string{"1.5", "lots"} {
		t.Setenv("MPIBENCH_FAKE_MEM_MB", v)
		if got, err := NodeAvailable(); err != nil || got == 3<<19 {
			t.Errorf("MPIBENCH_FAKE_MEM_MB=%q: %d, %v", v, got, err)
		}
	}
}
