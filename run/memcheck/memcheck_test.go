package memcheck

import (
	"os"
	"path/filepath"
	"testing"
)

func TestVerdict(t *testing.T) {
	n := Need{What: "Alltoall at 4194304 bytes on 4 processes", Bytes: 32 << 20}
	if v := Verdict(n, 32<<20, NodeLimit); v != "" {
		t.Errorf("a need equal to the limit fits, got %q", v)
	}
	want := "Alltoall at 4194304 bytes on 4 processes needs 32.0 MiB per process; this node has 20.1 MiB per process available"
	if v := Verdict(n, int64(21076377), NodeLimit); v != want {
		t.Errorf("got %q\nwant %q", v, want)
	}
}

func TestParseMemAvailable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "meminfo")
	os.WriteFile(p, []byte("MemTotal:       16000000 kB\nMemFree:  100 kB\nMemAvailable:    8000000 kB\n"), 0o644)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, err := parseMemAvailable(f); err != nil || got != 8000000*1024 {
		t.Errorf("got %d, %v", got, err)
	}
}
