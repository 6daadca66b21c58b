package textout

import "testing"

func TestBytes(t *testing.T) {
	for b, want := range map[int]string{0: "0 B", 1000: "1000 B", 1024: "1 KiB", 1536: "1536 B",
		3 << 20: "3 MiB", 2 << 30: "2 GiB", 1<<30 + 1<<20: "1025 MiB"} {
		if got := Bytes(b); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", b, got, want)
		}
	}
}
