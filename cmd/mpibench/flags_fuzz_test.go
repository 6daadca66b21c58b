package main

import (
	"io"
	"strings"
	"testing"

	"mpibench/internal/cli"
	"mpibench/pgmpi"
)

// splitArgs splits a fuzzed string into arguments, one per line.
func splitArgs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func FuzzSkampiParse(f *testing.F) {
	for _, s := range []string{
		"", "-config\nmy.ski", "-o\nout.jsonl\n-resume", "-epsilon\n0.05", "-epsilon\n1", "-epsilon\nNaN",
		"-o=", "-print-config", "-h", "extra", "-resume=maybe", "-samples=false",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := splitArgs(s)
		fl, err := skampiParse(args)
		if err != nil {
			return
		}
		if fl.out == "" || fl.epsilon < 0 || fl.epsilon >= 1 {
			t.Fatalf("skampiParse(%q): %+v", args, fl)
		}
	})
}

func FuzzReportParse(f *testing.F) {
	for _, s := range []string{
		"", "a.jsonl", "a.jsonl\n-o\nr.html\nb.jsonl", "-format\npng\na.jsonl", "-o", "-h", "--help", "-x\na.jsonl",
		"--\na.jsonl", "-\n-o\nx", "a.jsonl\n--\n-o",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := splitArgs(s)
		fs := cli.NewFlags("report")
		fs.String("o", "", "")
		fs.String("format", "", "")
		files, code := reportParse(fs, args, reportUsage, io.Discard, io.Discard)
		switch {
		case files == nil && code != 0 && code != 2:
			t.Fatalf("reportParse(%q): code %d", args, code)
		case files != nil && (code != 0 || len(files) == 0 || len(files) > len(args)):
			t.Fatalf("reportParse(%q): files %q code %d", args, files, code)
		}
	})
}

func FuzzSetCriteria(f *testing.F) {
	for _, s := range []string{
		"\n", "rse=0.01\n", "\ncov_mean=10", "cov_mean=0.02,cov_median=0.03\ncov_mean=20,cov_median=30",
		"\nrse=5", "\ncov_mean=2.5", "\ncov_mean=1e300", "\ncov_mean=-9e18", "\ncov_mean=NaN", "x\ny",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		thr, win, _ := strings.Cut(s, "\n")
		crit := pgmpi.DefaultCriteria()
		if err := setCriteria(&crit, thr, win); err != nil {
			return
		}
		crit.Check()
	})
}
