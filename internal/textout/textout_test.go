package textout

import (
	"errors"
	"strings"
	"testing"
)

// failAfter accepts n writes, then fails every one.
type failAfter struct {
	n     int
	calls int
	b     strings.Builder
}

var errFull = errors.New("no space left on device")

func (f *failAfter) Write(p []byte) (int, error) {
	f.calls++
	if f.calls > f.n {
		return 0, errFull
	}
	return f.b.Write(p)
}

func TestWriterKeepsFirstError(t *testing.T) {
	f := &failAfter{n: 1}
	w := New(f)
	w.Printf("a%d\n", 1)
	w.Println("b")
	w.Println("c")
	if !errors.Is(w.Err(), errFull) {
		t.Errorf("Err() = %v, want %v", w.Err(), errFull)
	}
	if f.calls != 2 || f.b.String() != "a1\n" {
		t.Errorf("wrote %q in %d calls; want the first line, then one failed write and no more", f.b.String(), f.calls)
	}
	ok := New(&failAfter{n: 9})
	ok.Println("x")
	if ok.Err() != nil {
		t.Errorf("Err() = %v on a good writer", ok.Err())
	}
}

// A cleaning Writer cleans the strings among its arguments, not its
// format nor what WriteString writes.
func TestWriterCleans(t *testing.T) {
	var b strings.Builder
	w := NewCleaning(&b)
	w.Printf("%s %d\n", "a\x1b[2Jb", 3)
	w.Println("c\x07", 4)
	w.WriteString("d\x1b\n")
	if got, want := b.String(), "a?[2Jb 3\nc? 4\nd\x1b\n"; got != want || w.Err() != nil {
		t.Errorf("wrote %q, %v; want %q", got, w.Err(), want)
	}
	b.Reset()
	New(&b).Printf("%s", "e\x07")
	if b.String() != "e\x07" {
		t.Errorf("a plain Writer wrote %q", b.String())
	}
}
