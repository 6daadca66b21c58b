package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestGuidelinesCheckDispatch: 'guidelines check' reaches the check,
// without MPI (the check itself is tested in package guideline).
func TestGuidelinesCheckDispatch(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-defaults"}, 0, "GL17 MPI_Reduce_scatter"},
		{[]string{"-h"}, 0, "Usage: mpibench guidelines check DIR"},
		{nil, 2, "no results file named"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"guidelines", "check"}, c.args...), &out, &errb)
		if code != c.code || !strings.Contains(out.String()+errb.String(), c.want) {
			t.Errorf("%q: exit %d, want %d and %q:\n%s%s", c.args, code, c.code, c.want, out.String(), errb.String())
		}
	}
}
