package guideline

import (
	"errors"
	"strings"
	"testing"

	"mpibench/internal/golden"
)

// TestWriteTextGolden: the guideline tables of the synthetic data (4
// processes, 10 launches, violations planted) match testdata/text.golden
// line for line (go test -update rewrites it after a deliberate change).
func TestWriteTextGolden(t *testing.T) {
	res, err := Check(FromRecords(Synthetic(4, 10, true)), Default(), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/text.golden", b.String())
}

// full is a writer on a full disk.
type full struct{}

func (full) Write([]byte) (int, error) { return 0, errFull }

var errFull = errors.New("no space left on device")

// A failed write reaches the caller of WriteText.
func TestWriteTextError(t *testing.T) {
	res, err := Check(FromRecords(Synthetic(2, 3, false)), Default(), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteText(full{}, res); !errors.Is(err, errFull) {
		t.Errorf("WriteText on a full disk: %v, want %v", err, errFull)
	}
}
