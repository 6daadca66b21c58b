package main

import (
	"bytes"
	"fmt"
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

// rewrite rewrites the file rel of dir from into dir to, in the records
// of this mpibench.
func rewrite(t *testing.T, from, to, rel string) {
	t.Helper()
	f, err := os.Open(filepath.Join(from, rel))
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
	out := filepath.Join(to, rel)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadersTakeV1: merge, compare, report and guidelines check read the
// files of the last release that wrote version 1, and give the same
// output, byte for byte, as from the same records in this version.
func TestReadersTakeV1(t *testing.T) {
	readersSame(t, v1Dir, []string{"mpi1.jsonl", "mpi1b.jsonl", "multi.jsonl", "links.jsonl", "skampi.jsonl",
		"osu.jsonl", "osucoll.jsonl", "beff.jsonl", "imb2021.jsonl", "nbc.jsonl", "merged.jsonl", "pgmpi/launch-1.jsonl"},
		[][]string{
			{"merge", "D/mpi1.jsonl", "D/mpi1b.jsonl"},
			{"merge", "D/merged.jsonl", "D/mpi1.jsonl", "-o", "O/merged.jsonl"},
			{"compare", "D/mpi1.jsonl", "D/mpi1b.jsonl"},
			{"report", "D/mpi1.jsonl", "D/multi.jsonl", "D/links.jsonl", "D/skampi.jsonl", "D/osu.jsonl",
				"D/osucoll.jsonl", "D/beff.jsonl", "D/imb2021.jsonl", "D/nbc.jsonl", "-o", "O/r.html"},
			{"guidelines", "check", "D/pgmpi"},
		})
}

// v2Dir holds results files of records version 2, as the last commit
// that wrote them left them (analysis/result/testdata/v2/README.md).
const v2Dir = "../../analysis/result/testdata/v2"

// TestReadersTakeV2: merge, compare, report and guidelines check read the
// files of version 2, whose suite figures are flat on the record, and give
// the same output, byte for byte, as from the same records in version 3,
// which puts them in objects.
func TestReadersTakeV2(t *testing.T) {
	readersSame(t, v2Dir, []string{"mpi1.jsonl", "mpi1b.jsonl", "sync.jsonl", "multi.jsonl", "nbc.jsonl", "osu.jsonl",
		"links.jsonl", "skampi.jsonl", "beff.jsonl", "beffio.jsonl", "violations.jsonl", "merged.jsonl", "pgmpi/launch-1.jsonl"},
		[][]string{
			{"merge", "D/mpi1.jsonl", "D/mpi1b.jsonl"},
			{"merge", "D/merged.jsonl", "D/mpi1.jsonl", "-o", "O/merged.jsonl"},
			{"merge", "D/skampi.jsonl", "D/skampi.jsonl", "-o", "O/merged.jsonl"},
			{"merge", "D/sync.jsonl", "D/nbc.jsonl", "D/sync.jsonl", "D/nbc.jsonl", "-o", "O/merged.jsonl"},
			{"merge", "D/beff.jsonl", "D/beff.jsonl", "-o", "O/merged.jsonl"},
			{"merge", "D/beffio.jsonl", "D/beffio.jsonl", "-o", "O/merged.jsonl"},
			{"compare", "D/mpi1.jsonl", "D/mpi1b.jsonl"},
			{"compare", "D/skampi.jsonl", "D/skampi.jsonl"},
			{"compare", "D/nbc.jsonl", "D/nbc.jsonl"},
			{"compare", "D/sync.jsonl", "D/sync.jsonl"},
			{"compare", "D/beff.jsonl", "D/beff.jsonl"},
			{"report", "D/mpi1.jsonl", "D/sync.jsonl", "D/multi.jsonl", "D/links.jsonl", "D/skampi.jsonl", "D/osu.jsonl",
				"D/beff.jsonl", "D/beffio.jsonl", "D/nbc.jsonl", "D/violations.jsonl", "-o", "O/r.html"},
			{"guidelines", "check", "D/pgmpi", "-alpha", "0.5", "-json", "O/merged.jsonl"},
		})
}

// readersSame runs each command on the files of dir and on the same
// files rewritten in this version, and requires the same output. In a
// command, D/ is the folder of the files and O/ one for its output.
func readersSame(t *testing.T, dir string, files []string, cases [][]string) {
	t.Helper()
	newDir := t.TempDir()
	for _, rel := range files {
		rewrite(t, dir, newDir, rel)
	}
	for _, c := range cases {
		var outs [2]string
		for i, dir := range []string{dir, newDir} {
			o := t.TempDir()
			args := make([]string, len(c))
			for k, a := range c {
				a = strings.Replace(a, "D/", dir+"/", 1)
				args[k] = strings.Replace(a, "O/", o+"/", 1)
			}
			code, stdout, stderr := reportRun(args...)
			if code != 0 && code != 1 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			files := ""
			for _, name := range []string{"merged.jsonl", "r.html"} {
				if b, err := os.ReadFile(filepath.Join(o, name)); err == nil {
					files += name + ":\n" + string(b)
				}
			}
			out := fmt.Sprintf("exit %d\n%s\n--\n%s\n--\n%s", code, stdout, stderr, files)
			outs[i] = strings.NewReplacer(dir, "D", o, "O").Replace(out)
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: the old version and this one give other output:\n%s", strings.Join(c, " "), firstDiff(outs[0], outs[1]))
		}
	}
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n  old: " + trunc(al[i]) + "\n  new: " + trunc(bl[i])
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
