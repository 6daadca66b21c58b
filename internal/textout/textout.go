// Package textout writes text reports without losing a write error: the
// renderers print line after line and ask once, at the end, whether all
// of it went out (a full disk or a closed pipe on stdout must fail the
// command, not truncate its results in silence).
package textout

import (
	"fmt"
	"io"
)

// Writer keeps the first write error; after it, every write is skipped.
type Writer struct {
	w     io.Writer
	clean bool // Printf and Println clean their string arguments
	err   error
}

// New returns a Writer on w.
func New(w io.Writer) *Writer { return &Writer{w: w} }

// NewCleaning returns a Writer on w whose Printf and Println clean every
// string argument (Clean): for a text made of the strings of records
// (hosts, arguments, names), which reach a terminal.
func NewCleaning(w io.Writer) *Writer { return &Writer{w: w, clean: true} }

// Printf is fmt.Fprintf to the underlying writer, until a write fails.
func (t *Writer) Printf(format string, a ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, t.args(a)...)
	}
}

// Println is fmt.Fprintln to the underlying writer, until a write fails.
func (t *Writer) Println(a ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintln(t.w, t.args(a)...)
	}
}

// WriteString writes s as it is, until a write fails.
func (t *Writer) WriteString(s string) {
	if t.err == nil {
		_, t.err = io.WriteString(t.w, s)
	}
}

// Err is the first write error, nil if none.
func (t *Writer) Err() error { return t.err }

func (t *Writer) args(a []any) []any {
	if t.clean {
		return CleanArgs(a)
	}
	return a
}
