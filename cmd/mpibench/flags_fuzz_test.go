package main

import (
	"io"
	"math"
	"slices"
	"strings"
	"testing"

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
		fs := newFlags("report")
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

// FuzzSetCriteria: -thresholds and -window either fail with a message
// naming the flag, or set exactly the values given; and Check, with every
// method selected so that it looks at every value set, accepts the
// criteria exactly when every threshold is a finite positive number and
// every window of cov_mean and cov_median 2 to pgmpi.MaxReps.
func FuzzSetCriteria(f *testing.F) {
	for _, s := range []string{
		"\n", "rse=0.01\n", "\ncov_mean=10", "cov_mean=0.02,cov_median=0.03\ncov_mean=20,cov_median=30",
		"\nrse=5", "\ncov_mean=2.5", "\ncov_mean=1e300", "\ncov_mean=-9e18", "\ncov_mean=NaN", "x\ny",
		"rse=inf\n", "rse=-0\n", "cov_median=NaN\n", "\ncov_median=1", "\ncov_mean=1000001", "rse=1,rse=2\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		thr, win, _ := strings.Cut(s, "\n")
		crit := pgmpi.DefaultCriteria()
		crit.Methods = slices.Clone(pgmpi.Methods)
		if err := setCriteria(&crit, thr, win); err != nil {
			if !strings.HasPrefix(err.Error(), "-thresholds: ") && !strings.HasPrefix(err.Error(), "-window: ") {
				t.Fatalf("setCriteria(%q, %q): %v does not name the flag", thr, win, err)
			}
			return
		}
		checkSet(t, &crit, thr, win)
		want := criteriaOK(&crit)
		if err := crit.Check(); (err == nil) != want {
			t.Fatalf("setCriteria(%q, %q): %+v: Check() = %v, want ok %v", thr, win, crit, err, want)
		}
	})
}

// checkSet: the values of thr and win, the last of a key, are in crit.
func checkSet(t *testing.T, crit *pgmpi.Criteria, thr, win string) {
	t.Helper()
	for s, isWin := range map[string]bool{thr: false, win: true} {
		if s == "" {
			continue
		}
		kv, err := pgmpi.ParseKeyValues(s)
		if err != nil {
			t.Fatalf("setCriteria accepted %q, which ParseKeyValues refuses: %v", s, err)
		}
		for k, v := range kv {
			got := crit.Thresholds[k]
			if isWin {
				got = float64(crit.Windows[k])
			}
			if got != v && !(math.IsNaN(got) && math.IsNaN(v)) {
				t.Fatalf("setCriteria(%q, %q): %s is %v, want %v", thr, win, k, got, v)
			}
		}
	}
}

// criteriaOK is what Check must decide for criteria with every method.
func criteriaOK(c *pgmpi.Criteria) bool {
	for _, m := range c.Methods {
		v := c.Thresholds[m]
		if !(v > 0) || math.IsInf(v, 1) {
			return false
		}
		if w := c.Windows[m]; m != pgmpi.RSE && (w < 2 || w > pgmpi.MaxReps) {
			return false
		}
	}
	return true
}
