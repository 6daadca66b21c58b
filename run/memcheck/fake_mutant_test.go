//go:build mutant

package memcheck

import "testing"

func TestFakeMemory(t *testing.T) {
	t.Setenv(FakeEnv, "1.5")
	if got, err := NodeAvailable(); err != nil || got != 3<<19 {
		t.Errorf("got %d, %v", got, err)
	}
	t.Setenv(FakeEnv, "lots")
	if _, err := NodeAvailable(); err == nil {
		t.Error("a bad fake value passed")
	}
}
