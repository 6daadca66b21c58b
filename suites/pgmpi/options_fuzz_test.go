package pgmpi

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// FuzzSetCriteria: -thresholds and -window either fail with a message
// naming the flag, or set exactly the values given; and Check, with every
// method selected so that it looks at every value set, accepts the
// criteria exactly when every threshold is a finite positive number and
// every window of cov_mean and cov_median 2 to MaxReps.
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
		crit := DefaultCriteria()
		crit.Methods = slices.Clone(Methods)
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
func checkSet(t *testing.T, crit *Criteria, thr, win string) {
	t.Helper()
	for s, isWin := range map[string]bool{thr: false, win: true} {
		if s == "" {
			continue
		}
		kv, err := ParseKeyValues(s)
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
func criteriaOK(c *Criteria) bool {
	for _, m := range c.Methods {
		v := c.Thresholds[m]
		if !(v > 0) || math.IsInf(v, 1) {
			return false
		}
		if w := c.Windows[m]; m != RSE && (w < 2 || w > MaxReps) {
			return false
		}
	}
	return true
}
