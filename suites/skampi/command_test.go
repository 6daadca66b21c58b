package skampi

import (
	"strings"
	"testing"
)

func FuzzSkampiParse(f *testing.F) {
	for _, s := range []string{
		"", "-config\nmy.ski", "-o\nout.jsonl\n-resume", "-epsilon\n0.05", "-epsilon\n1", "-epsilon\nNaN",
		"-o=", "-json\nr.jsonl", "-json=", "-print-config", "-h", "extra", "-resume=maybe", "-samples=false",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, "\n")
		if s == "" {
			args = nil
		}
		fl, err := parseFlags(args)
		if err != nil {
			return
		}
		if fl.out == "" || fl.epsilon < 0 || fl.epsilon >= 1 {
			t.Fatalf("parseFlags(%q): %+v", args, fl)
		}
	})
}

// -json is the results file's flag as in every suite; -o, its older
// name, sets the same file.
func TestFlagsJSONAlias(t *testing.T) {
	for _, args := range [][]string{{"-json", "r.jsonl"}, {"-o", "r.jsonl"}, {"-json=r.jsonl"}} {
		f, err := parseFlags(args)
		if err != nil || f.out != "r.jsonl" {
			t.Errorf("%q: out %q, %v", args, f.out, err)
		}
	}
	for _, args := range [][]string{{"-json="}, {"-o="}} {
		if _, err := parseFlags(args); err == nil || !strings.Contains(err.Error(), "want a file name") {
			t.Errorf("%q: %v, want an error", args, err)
		}
	}
	if _, err := parseFlags([]string{"extra"}); err == nil {
		t.Error("an argument that is no flag was taken")
	}
}

// prepare hands the -json file to mpijob as the run's journal.
func TestPrepareJournal(t *testing.T) {
	p, path, err := prepare([]string{"-json", "r.jsonl", "-epsilon", "0.2", "-samples=false"}, 2, false)
	if err != nil || path != "r.jsonl" || p.Samples || p.Config.Measurements[0].Epsilon != 0.2 {
		t.Fatalf("prepare: %v, journal %q, %+v", err, path, p)
	}
	if _, _, err := prepare([]string{"-config", "/nonexistent.ski"}, 2, false); err == nil {
		t.Error("a missing -config was taken")
	}
}
