package skampi

import (
	"slices"
	"testing"

	"mpibench/run/journal"
)

// Section 3.3: finished and hung measurements are skipped, the crashed
// ones retried last in the order they crashed.
func TestOrder(t *testing.T) {
	cfg := journalConfig(t)
	if got := Order(cfg, nil); !slices.Equal(got, []string{"A", "B", "C", "D"}) {
		t.Errorf("fresh run: order %v", got)
	}
	r := &journal.Resumed{Done: []string{"A"}, Crashed: []string{"D", "B", "gone"}, Hung: []string{"C"}}
	if got := Order(cfg, r); !slices.Equal(got, []string{"D", "B"}) {
		t.Errorf("resumed: order %v, want D B", got)
	}
	r = &journal.Resumed{Crashed: []string{"B"}}
	if got := Order(cfg, r); !slices.Equal(got, []string{"A", "C", "D", "B"}) {
		t.Errorf("resumed: order %v, want A C D B", got)
	}
}
