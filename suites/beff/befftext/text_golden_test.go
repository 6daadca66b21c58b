package befftext

import (
	"io"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/internal/golden"
)

// TestTextGolden: the b_eff and b_eff_io text pages, rendered from fixed
// records, match testdata/*.golden line for line (go test -update
// rewrites them after a deliberate change of format).
func TestTextGolden(t *testing.T) {
	for _, c := range []struct {
		name   string
		render func(io.Writer, []result.Record) error
		recs   []result.Record
	}{
		{"beff", BeffText, beffRecords()},
		{"beffio", BeffIOText, beffioRecords()},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			if err := c.render(&b, c.recs); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "testdata/"+c.name+"-text.golden", b.String())
		})
	}
}
