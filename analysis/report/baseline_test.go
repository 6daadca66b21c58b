package report

import (
	"bytes"
	"strings"
	"testing"
)

// baselineInputs are two runs of PingPong, the later one twice as slow
// at 1000 bytes, given later run first.
func baselineInputs() []Input {
	newer := Input{Name: "new.jsonl", Records: reportIMB("hostN", 2)}
	older := Input{Name: "old.jsonl", Records: reportIMB("hostO", 1)}
	for i := range newer.Records {
		newer.Records[i].Context.Start = "2026-11-29T10:00:00Z"
	}
	for i := range older.Records {
		older.Records[i].Context.Start = "2026-11-28T09:00:00+02:00"
	}
	return []Input{newer, older}
}

// TestReportBaseline: the inputs are compared with the oldest run by
// default, whatever their order (issue 26: it was always the first
// input), with the first input or a named one by choice, and the page
// says which.
func TestReportBaseline(t *testing.T) {
	for _, c := range []struct {
		choice   string
		base     string // the input label's file
		diff     string // the change the largest difference shows
		whyShown string
		err      string
	}{
		{"", "old.jsonl", "+", "the input whose first run started first (2026-11-28T07:00:00Z)", ""},
		{BaselineOldest, "old.jsonl", "+", "first run started first", ""},
		{BaselineFirst, "new.jsonl", "-", "the first input given", ""},
		{"new.jsonl", "new.jsonl", "-", "chosen by -baseline", ""},
		{"/somewhere/old.jsonl", "", "", "", `-baseline "/somewhere/old.jsonl": not an input`},
	} {
		col := collect(baselineInputs())
		col.SetBaseline(c.choice)
		note, err := col.Baseline()
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("-baseline %q: error %v, want %q", c.choice, err, c.err)
			}
			continue
		}
		if err != nil || !strings.HasPrefix(note, "Baseline: "+c.base) || !strings.Contains(note, c.whyShown) {
			t.Errorf("-baseline %q: note %q, %v; want %s, %q", c.choice, note, err, c.base, c.whyShown)
		}
		page, err := col.page()
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Diffs) == 0 || !strings.HasPrefix(page.Diffs[0].Base, c.base) ||
			!strings.HasPrefix(page.Diffs[0].Change, c.diff) {
			t.Errorf("-baseline %q: differences %+v, want against %s, change %s...", c.choice, page.Diffs, c.base, c.diff)
		}
		var b bytes.Buffer
		if err := col.HTML(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), `id="baseline">Baseline: `+c.base) {
			t.Errorf("-baseline %q: the page does not name the baseline %s", c.choice, c.base)
		}
	}
}
