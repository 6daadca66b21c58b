package result

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// v1Files are the results files of records version 1 in testdata/v1,
// written by the last release that wrote them (testdata/v1/README.md).
func v1Files(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "v1", "*.jsonl"))
	if err != nil || len(files) < 10 {
		t.Fatalf("testdata/v1: %d files, %v", len(files), err)
	}
	return append(files, filepath.Join("testdata", "v1", "pgmpi", "launch-1.jsonl"))
}

func readFile(t *testing.T, path string) []Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, warns, err := Read(f, path)
	if err != nil || len(warns) > 0 || len(recs) == 0 {
		t.Fatalf("%s: %d records, warnings %v, %v", path, len(recs), warns, err)
	}
	return recs
}

// TestV1Files reads every file of version 1 and writes it again in
// version 2, which must read back to the same records, in less space:
// one context per run, no group the description gives.
func TestV1Files(t *testing.T) {
	for _, path := range v1Files(t) {
		v1 := readFile(t, path)
		for _, r := range v1 {
			if r.Context.Tool != "mpibench 0.1.0" || r.Context.Procs < 2 || r.Run != 0 {
				t.Fatalf("%s: a record without its context: %+v", path, r.Context)
			}
		}
		var b bytes.Buffer
		w := NewWriter(&b)
		for i := range v1 {
			if err := w.Write(&v1[i]); err != nil {
				t.Fatal(err)
			}
		}
		v2 := b.String()
		out := filepath.Join(t.TempDir(), "v2.jsonl")
		if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, out); !reflect.DeepEqual(got, v1) {
			t.Errorf("%s: version 2 reads back other records than version 1", path)
		}
		runs := strings.Count(v2, fmt.Sprintf(`{"schema":%d,`, Schema))
		if runs < 1 || strings.Count(v2, `"context"`) != runs {
			t.Errorf("%s: %d headers, %d contexts in version 2", path, runs, strings.Count(v2, `"context"`))
		}
		old, _ := os.ReadFile(path)
		if len(v2) >= len(old) {
			t.Errorf("%s: version 2 takes %d bytes, version 1 %d", path, len(v2), len(old))
		}
		t.Logf("%s: %d records, %d runs, %d -> %d bytes", filepath.Base(path), len(v1), runs, len(old), len(v2))
	}
}

// TestV2DescribesGroups: the -multi 1 -map 2x2 run lists its groups in
// version 1 and describes them in version 2; pairs stay listed.
func TestV2DescribesGroups(t *testing.T) {
	cases := []struct {
		file   string
		listed bool
	}{{"multi.jsonl", false}, {"mpi1.jsonl", false}, {"osucoll.jsonl", false}, {"links.jsonl", true}}
	for _, c := range cases {
		v1 := readFile(t, filepath.Join("testdata", "v1", c.file))
		var b bytes.Buffer
		w := NewWriter(&b)
		for i := range v1 {
			if v1[i].Groups == nil {
				t.Fatalf("%s: a record without groups", c.file)
			}
			if err := w.Write(&v1[i]); err != nil {
				t.Fatal(err)
			}
		}
		if got := strings.Contains(b.String(), `"groups"`); got != c.listed {
			t.Errorf("%s: groups listed %v in version 2, want %v", c.file, got, c.listed)
		}
	}
	// -map 2x2 on 4 ranks: positions go down the columns, PingPong's
	// groups are {0,2} and {1,3} (the IMB 3.0 guide, 5.1.2.6).
	multi := readFile(t, filepath.Join("testdata", "v1", "multi.jsonl"))
	if want := [][]int{{0, 2}, {1, 3}}; !reflect.DeepEqual(multi[0].Groups, want) {
		t.Errorf("multi.jsonl PingPong groups %v, want %v", multi[0].Groups, want)
	}
}
