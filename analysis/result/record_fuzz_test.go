package result

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, r := range testRecords() {
		w.Write(&r)
	}
	all := buf.String()
	for _, s := range []string{
		all, all[:len(all)/2], "", "\n\n  \n", "{}\n", "null\n", "[]\n", "{\"bytes\": -1}\n", "{\"bytes\": 1e400}\n",
		"{\"bytes\": \"x\"}\n{\"suite\":\"mpi1\"}\n", "{\"stats\": {\"n\": 3}}\n", "{\"beff\": null, \"groups\": [[]]}\n",
		"{\"suite\":\"\xff\"}\r\n", "{} {}\n", "{\"suite\":\"a\",\"suite\":\"b\"}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		recs, warns, err := Read(strings.NewReader(s), "in.jsonl")
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		lines := strings.Split(s, "\n")
		if n, h := nonBlank(lines), headers(lines); len(recs)+len(warns)+h != n {
			t.Fatalf("%d records, %d warnings and %d run headers from %d lines", len(recs), len(warns), h, n)
		}
		for i, wn := range warns {
			if wn.File != "in.jsonl" || wn.Line < 1 || wn.Line > len(lines) || (i > 0 && wn.Line <= warns[i-1].Line) {
				t.Fatalf("warning %v", wn)
			}
		}
		roundTrip(t, recs)
	})
}

// headers counts the valid run headers: a line is a record, a warning or
// one of these.
func headers(lines []string) int {
	n := 0
	for _, l := range lines {
		var h RunHeader
		l = strings.TrimSpace(l)
		if isHeader([]byte(l)) && json.Unmarshal([]byte(l), &h) == nil && h.Schema >= 2 && h.Schema <= Schema && h.Run > 0 {
			n++
		}
	}
	return n
}

func nonBlank(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// roundTrip fails t unless the records read back the same after Write;
// same means the same JSON, since omitempty drops empty lists.
func roundTrip(t *testing.T, recs []Record) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	first := buf.String()
	again, warns, err := Read(&buf, "again")
	if err != nil || len(warns) > 0 || len(again) != len(recs) {
		t.Fatalf("read back %d of %d records: %v %v", len(again), len(recs), warns, err)
	}
	buf.Reset()
	w = NewWriter(&buf) // a new file: the headers again
	for i := range again {
		w.Write(&again[i])
	}
	if buf.String() != first {
		t.Fatalf("round trip:\n%s\n%s", first, buf.String())
	}
}
