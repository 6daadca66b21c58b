package beffio

import (
	"errors"
	"slices"
	"testing"
)

func TestParseArgs(t *testing.T) {
	o, err := ParseArgs([]string{"-mem", "64", "-T", "2.5", "-iodir", "/x", "-partitions", "1,2,4", "-json", "r.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Mem != 64 || o.T != 2.5 || o.IODir != "/x" || !slices.Equal(o.Partitions, []int{1, 2, 4}) || o.JSON != "r.jsonl" {
		t.Errorf("parsed %+v", o)
	}
	if o, _ := ParseArgs(nil); o.T != DefaultT || o.IODir != "." || o.Mem != 0 {
		t.Errorf("defaults %+v", o)
	}
	for _, bad := range [][]string{
		{"-T", "-1"}, {"-T", "0"}, {"-T", "x"}, {"-mem", "0"}, {"-mem", "-3"},
		{"-partitions", "1,1"}, {"-partitions", "0"}, {"-partitions", ""}, {"-bogus"}, {"extra"}, {"-iodir", ""},
	} {
		_, err := ParseArgs(bad)
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: got %v, want a usage error", bad, err)
		}
	}
	if _, err := NewPlan(Options{Partitions: []int{1, 5}}, 4, 1); err == nil {
		t.Error("partition larger than the job accepted")
	}
}
