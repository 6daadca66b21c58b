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

// v2Files are the results files of records version 2 in testdata/v2,
// written by the last commit that wrote them (testdata/v2/README.md).
func v2Files(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "v2", "*.jsonl"))
	if err != nil || len(files) < 12 {
		t.Fatalf("testdata/v2: %d files, %v", len(files), err)
	}
	return append(files, filepath.Join("testdata", "v2", "pgmpi", "launch-1.jsonl"))
}

// toV3 writes recs in the records of this mpibench.
func toV3(t *testing.T, recs []Record) []byte {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// movedKeys are the keys version 3 moved into its objects, by object.
var movedKeys = map[string][]string{
	"overlap":   {"t_ovrl_us", "t_pure_us", "t_cpu_us", "overlap_pct", "cpu_mflops"},
	"b_eff":     {"rep", "b_mbps", "seed", "tries", "beff"},
	"b_eff_io":  {"mem_bytes", "units", "pos", "io_bytes", "sched_s", "io_mbps", "beffio"},
	"skampi":    {"param", "x", "epsilon", "reached", "rel_err", "correction_us", "stop", "min_reps", "max_reps", "tick_us"},
	"violation": {"guideline", "kind", "against", "from_bytes", "factor", "test", "tolerance", "p_value", "alpha"},
	"starts":    {"sync", "window_s", "clock_error_s", "valid_reps", "invalid_reps", "start_lag_s"},
}

// TestV2Files reads every file of version 2 and writes it again in
// version 3, which must read back to the same records, with the figures
// of every group in its object and none flat; between them the files
// hold every group.
func TestV2Files(t *testing.T) {
	seen := map[string]bool{}
	for _, path := range v2Files(t) {
		old, _ := os.ReadFile(path)
		if !bytes.HasPrefix(old, []byte(`{"schema":2,"run":1,`)) {
			t.Fatalf("%s: not a file of version 2", path)
		}
		v2 := readFile(t, path)
		v3 := toV3(t, v2)
		out := filepath.Join(t.TempDir(), "v3.jsonl")
		if err := os.WriteFile(out, v3, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, out); !reflect.DeepEqual(got, v2) {
			t.Errorf("%s: version 3 reads back other records than version 2", path)
		}
		if n := bytes.Count(v3, []byte(fmt.Sprintf(`{"schema":%d,"run":`, Schema))); n != bytes.Count(old, []byte(`{"schema":2,"run":`)) {
			t.Errorf("%s: %d headers of version 3", path, n)
		}
		for obj, keys := range movedKeys {
			inOld := false
			for _, k := range keys {
				inOld = inOld || bytes.Contains(old, []byte(`,"`+k+`":`))
			}
			has := bytes.Contains(v3, []byte(`"`+obj+`":{`))
			if inOld != has {
				t.Errorf("%s: version 2 has the keys of %q: %v, version 3 the object: %v", path, obj, inOld, has)
			}
			seen[obj] = seen[obj] || has
			// Outside the objects no moved key is left.
			for _, line := range bytes.Split(v3, []byte("\n")) {
				flat := topLevel(line)
				for _, k := range keys {
					if bytes.Contains(flat, []byte(`"`+k+`":`)) {
						t.Errorf("%s: %q flat in version 3: %s", path, k, line)
					}
				}
			}
		}
		t.Logf("%s: %d records, %d -> %d bytes", filepath.Base(path), len(v2), len(old), len(v3))
	}
	for obj := range movedKeys {
		if !seen[obj] {
			t.Errorf("no file of testdata/v2 has figures of %q", obj)
		}
	}
}

// topLevel is line with every object inside it blanked out.
func topLevel(line []byte) []byte {
	out := make([]byte, 0, len(line))
	depth, inStr := 0, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inStr && c == '\\':
			i++
			continue
		case c == '"':
			inStr = !inStr
		case !inStr && c == '{':
			depth++
		case !inStr && c == '}':
			depth--
		}
		if depth <= 1 {
			out = append(out, c)
		}
	}
	return out
}

// TestMixedVersions: a file that holds a run of version 2 (its header and
// its lines as version 2 wrote them, as a resumed run copies them) and a
// run of version 3 after it, also under the same run id, reads as both.
func TestMixedVersions(t *testing.T) {
	for _, c := range [][2]string{{"nbc.jsonl", "sync.jsonl"}, {"skampi.jsonl", "beffio.jsonl"}, {"violations.jsonl", "beff.jsonl"}} {
		oldText, err := os.ReadFile(filepath.Join("testdata", "v2", c[0]))
		if err != nil {
			t.Fatal(err)
		}
		old := readFile(t, filepath.Join("testdata", "v2", c[0]))
		newer := readFile(t, filepath.Join("testdata", "v2", c[1]))
		v3 := toV3(t, newer) // run 1, as the first run of a stream
		for _, run := range []int{1, 2} {
			text := string(v3)
			if run == 2 {
				text = strings.NewReplacer(`"run":1,`, `"run":2,`, `"run":1}`, `"run":2}`).Replace(text)
			}
			mixed := string(oldText) + text + string(oldText)
			got, warns, err := Read(strings.NewReader(mixed), "mixed.jsonl")
			want := append(append(append([]Record{}, old...), newer...), old...)
			if err != nil || len(warns) > 0 || !reflect.DeepEqual(got, want) {
				t.Errorf("%s, then %s in version 3 as run %d: %d records of %d, warnings %v, %v",
					c[0], c[1], run, len(got), len(want), warns, err)
			}
		}
	}
}

// TestNewerSchema: a header of a version this mpibench does not know is
// refused with its records, and says which versions it reads.
func TestNewerSchema(t *testing.T) {
	text := fmt.Sprintf("{\"schema\":%d,\"run\":1,\"context\":{}}\n{\"suite\":\"mpi1\",\"run\":1}\n", Schema+1)
	recs, warns, err := Read(strings.NewReader(text), "new.jsonl")
	if err != nil || len(recs) != 0 || len(warns) != 2 || !strings.Contains(warns[0].Err.Error(), fmt.Sprintf("versions 1 to %d", Schema)) {
		t.Errorf("%d records, warnings %v, %v", len(recs), warns, err)
	}
}

// TestFastParserTakesV2AndV3: the fast parser takes every record line of
// the version 2 files and of their rewrites in version 3, objects and
// all, but for what it always leaves to encoding/json (b_eff and
// b_eff_io summaries, links' rows).
func TestFastParserTakesV2AndV3(t *testing.T) {
	for _, path := range v2Files(t) {
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		v3 := toV3(t, readFile(t, path))
		for _, text := range [][]byte{old, v3} {
			for _, line := range bytes.Split(bytes.TrimSpace(text), []byte("\n")) {
				if isHeader(line) {
					continue
				}
				var r Record
				p := parser{b: line, prev: &Record{}}
				if p.record(&r) {
					continue
				}
				if !bytes.Contains(line, []byte(`"beff":{`)) && !bytes.Contains(line, []byte(`"beffio":{`)) && !bytes.Contains(line, []byte(`"links":{`)) {
					t.Errorf("%s: the fast parser refuses %s", path, line)
				}
			}
		}
	}
}
