package pgmpi

import (
	"strings"
	"testing"
)

func FuzzSetCriteria(f *testing.F) {
	for _, s := range []string{
		"\n", "rse=0.01\n", "\ncov_mean=10", "cov_mean=0.02,cov_median=0.03\ncov_mean=20,cov_median=30",
		"\nrse=5", "\ncov_mean=2.5", "\ncov_mean=1e300", "\ncov_mean=-9e18", "\ncov_mean=NaN", "x\ny",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		thr, win, _ := strings.Cut(s, "\n")
		crit := DefaultCriteria()
		if err := setCriteria(&crit, thr, win); err != nil {
			return
		}
		crit.Check()
	})
}
