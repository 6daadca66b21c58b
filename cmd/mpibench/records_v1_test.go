package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// v1Dir holds results files of records version 1, as the last release
// that wrote them left them (analysis/result/testdata/v1/README.md).
const v1Dir = "../../analysis/result/testdata/v1"

// toV2 rewrites the version 1 file rel of v1Dir into dir, in version 2.
func toV2(t *testing.T, dir, rel string) {
	t.Helper()
	f, err := os.Open(filepath.Join(v1Dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, warns, err := result.Read(f, rel)
	if err != nil || len(warns) > 0 {
		t.Fatalf("%s: %v %v", rel, warns, err)
	}
	var b bytes.Buffer
	w := result.NewWriter(&b)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadersTakeV1: merge, compare, report and guidelines check read the
// files of the last release that wrote version 1, and give the same
// output, byte for byte, as from the same records in version 2.
func TestReadersTakeV1(t *testing.T) {
	v2Dir := t.TempDir()
	for _, rel := range []string{"mpi1.jsonl", "mpi1b.jsonl", "multi.jsonl", "links.jsonl", "skampi.jsonl",
		"osu.jsonl", "osucoll.jsonl", "beff.jsonl", "imb2021.jsonl", "nbc.jsonl", "merged.jsonl", "pgmpi/launch-1.jsonl"} {
		toV2(t, v2Dir, rel)
	}
	cases := [][]string{
		{"merge", "D/mpi1.jsonl", "D/mpi1b.jsonl"},
		{"merge", "D/merged.jsonl", "D/mpi1.jsonl", "-o", "O/merged.jsonl"},
		{"compare", "D/mpi1.jsonl", "D/mpi1b.jsonl"},
		{"report", "D/mpi1.jsonl", "D/multi.jsonl", "D/links.jsonl", "D/skampi.jsonl", "D/osu.jsonl",
			"D/osucoll.jsonl", "D/beff.jsonl", "D/imb2021.jsonl", "D/nbc.jsonl", "-o", "O/r.html"},
		{"guidelines", "check", "D/pgmpi"},
	}
	for _, c := range cases {
		var outs [2]string
		for i, dir := range []string{v1Dir, v2Dir} {
			o := t.TempDir()
			args := make([]string, len(c))
			for k, a := range c {
				a = strings.Replace(a, "D/", dir+"/", 1)
				args[k] = strings.Replace(a, "O/", o+"/", 1)
			}
			code, stdout, stderr := reportRun(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			files := ""
			for _, name := range []string{"merged.jsonl", "r.html"} {
				if b, err := os.ReadFile(filepath.Join(o, name)); err == nil {
					files += name + ":\n" + string(b)
				}
			}
			out := stdout + "\n--\n" + stderr + "\n--\n" + files
			outs[i] = strings.NewReplacer(dir, "D", o, "O").Replace(out)
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: version 1 and version 2 give other output:\n%s", strings.Join(c, " "), firstDiff(outs[0], outs[1]))
		}
	}
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n  v1: " + trunc(al[i]) + "\n  v2: " + trunc(bl[i])
		}
	}
	return "one is longer: " + strconv.Itoa(len(al)) + " against " + strconv.Itoa(len(bl)) + " lines"
}

func trunc(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
