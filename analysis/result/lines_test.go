package result

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// scanLinesAll reads data with ScanLines, keeping copies of the records,
// and checks that every span is its line in data.
func scanLinesAll(t *testing.T, data []byte, name string) ([]Record, []Line, []Warning) {
	t.Helper()
	var recs []Record
	var lines []Line
	warns, err := ScanLines(bytes.NewReader(data), name, func(r *Record, l *Line) error {
		recs = append(recs, *r)
		lines = append(lines, *l)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		text := data[l.Off : l.Off+l.Len]
		if bytes.Count(text, []byte("\n")) > 1 || (l.Off > 0 && data[l.Off-1] != '\n') {
			t.Fatalf("%s: line %d: span %+v is not one line: %q", name, l.Line, l.Span, text)
		}
		if l.Run != 0 && !isHeader(bytes.TrimSpace(data[l.Head.Off:l.Head.Off+l.Head.Len])) {
			t.Fatalf("%s: line %d: its header span %+v is no header", name, l.Line, l.Head)
		}
	}
	return recs, lines, warns
}

// ScanLines reads what Read reads, with the same warnings, from every
// file of records version 1 kept, and from them written in version 2,
// with odd lines in between.
func TestScanLinesSameAsRead(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "v1", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := Read(bytes.NewReader(data), f)
		if err != nil {
			t.Fatal(err)
		}
		var v2 bytes.Buffer
		w := NewWriter(&v2)
		for i := range want {
			if err := w.Write(&want[i]); err != nil {
				t.Fatal(err)
			}
			if i == 1 {
				v2.WriteString("\n  \r\n{\"suite\": half\n")
			}
		}
		v2.WriteString(`{"suite":"mpi1","run":7}` + "\n" + `{"schema":2,"run":1,"context":{}}` + "\r\n" + `{"suite":"x","run":1}`)
		for _, in := range [][]byte{data, v2.Bytes()} {
			wantAll, wantWarns, _ := Read(bytes.NewReader(in), f)
			got, _, warns := scanLinesAll(t, in, f)
			if !reflect.DeepEqual(got, wantAll) {
				t.Errorf("%s: ScanLines read %d records, Read %d, or they differ", f, len(got), len(wantAll))
			}
			if len(warns) != len(wantWarns) {
				t.Errorf("%s: warnings %v, Read's %v", f, warns, wantWarns)
			}
			for i := range warns {
				if warns[i].String() != wantWarns[i].String() {
					t.Errorf("%s: warning %v, Read's %v", f, warns[i], wantWarns[i])
				}
			}
		}
	}
}

// A line longer than the reader's buffer is read whole, and spans count
// its bytes.
func TestScanLinesLong(t *testing.T) {
	long := `{"suite":"skampi","case":"A","samples_us":[` + strings.Repeat("1.5,", 100000) + `2]}`
	data := []byte("{\"suite\":\"mpi1\"}\n" + long + "\n{\"suite\":\"mpi1\",\"case\":\"B\"}")
	recs, lines, warns := scanLinesAll(t, data, "f")
	if len(recs) != 3 || len(warns) != 0 || len(recs[1].Samples) != 100001 || recs[2].Case != "B" {
		t.Fatalf("%d records, warnings %v", len(recs), warns)
	}
	if lines[1].Len != int64(len(long)+1) || lines[2].Off+lines[2].Len != int64(len(data)) {
		t.Errorf("spans %+v", lines)
	}
}
