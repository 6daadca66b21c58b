package result

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// scanText is n record lines numbered by bytes, with the lines in bad
// (1-based) cut short.
func scanText(n int, bad ...int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf(`{"suite":"mpi1","bytes":%d,"context":{"host":"h"}}`, i)
		for _, x := range bad {
			if x == i {
				line = line[:10]
			}
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// TestScanBatches reads lines over several batches: records in file
// order, warnings naming their lines.
func TestScanBatches(t *testing.T) {
	n := 3*scanBatch + 7
	bad := []int{1, scanBatch, scanBatch + 1, n}
	var got []int
	warns, err := Scan(strings.NewReader(scanText(n, bad...)), "f", func(r *Record) error {
		got = append(got, r.Bytes)
		return nil
	})
	if err != nil || len(got) != n-len(bad) {
		t.Fatalf("%d records, %v; want %d", len(got), err, n-len(bad))
	}
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Fatalf("record %d after %d", got[i], got[i-1])
		}
	}
	if len(warns) != len(bad) {
		t.Fatalf("%d warnings, want %d", len(warns), len(bad))
	}
	for i, w := range warns {
		if w.Line != bad[i] || w.File != "f" {
			t.Errorf("warning %v, want f:%d", w, bad[i])
		}
	}
}

// TestScanStop: an error of the callback ends the scan with that error.
func TestScanStop(t *testing.T) {
	stop := errors.New("enough")
	seen := 0
	_, err := Scan(strings.NewReader(scanText(10*scanBatch)), "f", func(r *Record) error {
		seen++
		if seen == scanBatch+3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || seen != scanBatch+3 {
		t.Errorf("error %v after %d records, want %v after %d", err, seen, stop, scanBatch+3)
	}
}
