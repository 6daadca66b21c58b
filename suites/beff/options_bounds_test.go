package beff

import (
	"errors"
	"strings"
	"testing"
)

// -mem is bounded, so that mem·2^20 cannot overflow into a negative L_max
// and a negative memory need.
func TestParseArgsMemBound(t *testing.T) {
	for _, v := range []string{"9000000000000", "90000000000000", "1048577", "9223372036854775807"} {
		_, err := ParseArgs([]string{"-mem", v})
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "-mem") || !strings.Contains(err.Error(), "1048576") {
			t.Errorf("-mem %s: got %v, want a usage error naming the bound", v, err)
		}
	}
	o, err := ParseArgs([]string{"-mem", "1048576"})
	if err != nil || o.Mem != MaxMemMB {
		t.Fatalf("-mem 1048576: %+v, %v", o, err)
	}
	if l := Lmax(o.Mem); l != MaxLmax {
		t.Errorf("Lmax(%d) = %d, want %d", o.Mem, l, MaxLmax)
	}
	p, err := NewPlan(o, 2, o.Mem)
	if err != nil {
		t.Fatal(err)
	}
	if n := MemoryNeed(p); n.Bytes <= 0 {
		t.Errorf("MemoryNeed at -mem %d: %+v", o.Mem, n)
	}
}
