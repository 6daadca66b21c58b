//go:build mutant

package cases

import "testing"

func TestParseFault(t *testing.T) {
	f, err := ParseFault("hang:1:mpi1/PingPong/np2/*")
	if err != nil || f.Kind != "hang" || f.Rank != 1 || f.Pattern != "mpi1/PingPong/np2/*" {
		t.Fatalf("%+v %v", f, err)
	}
	if f, err := ParseFault("kill:*:x"); err != nil || f.Rank != -1 {
		t.Fatalf("%+v %v", f, err)
	}
	for _, bad := range []string{"hang", "stop:1:x", "hang:-1:x", "hang:one:x", "hang:1:["} {
		if _, err := ParseFault(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if f, err := ParseFault(""); f != nil || err != nil {
		t.Errorf("empty: %+v %v", f, err)
	}
}
