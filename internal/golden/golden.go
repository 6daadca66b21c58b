// Package golden compares a renderer's text with a reviewed file in
// testdata, so that a change of format shows as a failing test with the
// first differing line; go test -update rewrites the files after a
// deliberate change, to be reviewed by hand in the diff.
package golden

import (
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// Check compares got with the file at path, or writes it with -update.
func Check(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it, then review it by hand)", err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s differs at line %d (go test -update rewrites it after a deliberate change):\ngot  %q\nwant %q",
				path, i+1, g, w)
		}
	}
}

// ErrFull is the error of Full's writes.
var ErrFull = errors.New("no space left on device")

// Full is a writer on a full disk: a renderer must return its error.
type Full struct{}

func (Full) Write([]byte) (int, error) { return 0, ErrFull }
