package guideline

import (
	"errors"
	"testing"

	"mpibench/internal/golden"
)

// A failed write reaches the caller of WriteText.
func TestWriteTextError(t *testing.T) {
	res, err := Check(FromRecords(Synthetic(2, 3, false)), Default(), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteText(golden.Full{}, res); !errors.Is(err, golden.ErrFull) {
		t.Errorf("WriteText on a full disk: %v, want %v", err, golden.ErrFull)
	}
}
