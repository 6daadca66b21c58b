package diskcheck

import (
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"1": 1, "4096": 4096, "1k": 1024, "2K": 2048, "3KiB": 3072, "5kb": 5120, "500M": 500 << 20,
		"2G": 2 << 30, "2GiB": 2 << 30, "1T": 1 << 40, "1p": 1 << 50, " 7M ": 7 << 20,
	} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-5", "1.5G", "12X", "G", "M1", "9999999999P", "8E"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
}

func TestLimitAndVerdict(t *testing.T) {
	if got := Limit(0, 100<<30); got != DefaultLimit {
		t.Errorf("default limit with 100 GiB free: %d", got)
	}
	if got := Limit(0, 10<<30); got != 5<<30 {
		t.Errorf("default limit with 10 GiB free: %d", got)
	}
	if got := Limit(123, 10<<30); got != 123 {
		t.Errorf("-disk 123: %d", got)
	}
	for _, c := range []struct {
		need, free, flag int64
		want             string
	}{
		{10 << 20, 64 << 20, 0, ""},
		{40 << 20, 64 << 20, 0, "without -disk a run takes at most min(16 GiB, half the free space 64.0 MiB (67108864 bytes)) = 32.0 MiB"},
		{70 << 20, 64 << 20, 0, "needs up to 70.0 MiB (73400320 bytes) of files in D; its file system has 64.0 MiB (67108864 bytes) free"},
		{70 << 20, 64 << 20, 1 << 30, "its file system has 64.0 MiB"},
		{40 << 20, 64 << 20, 20 << 20, "-disk allows 20.0 MiB (20971520 bytes)"},
		{40 << 20, 64 << 20, 50 << 20, ""},
	} {
		got := Verdict("X", "D", c.need, c.free, c.flag)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("Verdict(need %d, free %d, -disk %d) = %q, want %q", c.need, c.free, c.flag, got, c.want)
		}
	}
}

func TestFree(t *testing.T) {
	free, err := Free(t.TempDir())
	if err != nil || free <= 0 {
		t.Errorf("Free of a temporary directory: %d, %v", free, err)
	}
	if _, err := Free("/nonexistent/dir"); err == nil {
		t.Error("Free of a missing directory: no error")
	}
	if full, _ := Full(t.TempDir(), 1<<62); !full {
		t.Error("Full with a room of 4 EiB: false")
	}
}
