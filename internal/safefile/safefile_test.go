//go:build unix

package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func content(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// opens are the three ways of this package to write a file.
var opens = map[string]func(string) error{
	"Create": func(p string) error { return closeAfter(Create(p)) },
	"Append": func(p string) error { return closeAfter(Append(p)) },
	"WriteFile": func(p string) error {
		return WriteFile(p, []byte("new"))
	},
}

func closeAfter(f *os.File, err error) error {
	if err != nil {
		return err
	}
	if _, err := f.WriteString("new"); err != nil {
		return err
	}
	return f.Close()
}

// refused: every way of writing fails on path with a message holding
// want, and target keeps its content.
func refused(t *testing.T, path, want, target string) {
	t.Helper()
	for name, open := range opens {
		err := open(path)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s(%s): error %v, want one naming the path and %q", name, path, err, want)
		}
		if target != "" {
			if got := content(t, target); got != "precious" {
				t.Errorf("%s wrote through to %s: %q", name, target, got)
			}
		}
	}
}

func TestSymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	write(t, target, "precious")
	link := filepath.Join(dir, "out")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	refused(t, link, "is a symbolic link; mpibench does not write through links", target)
	// A dangling link must not create its target either.
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "created"), dangling); err != nil {
		t.Fatal(err)
	}
	refused(t, dangling, "is a symbolic link", "")
	if _, err := os.Lstat(filepath.Join(dir, "created")); err == nil {
		t.Error("a dangling link's target was created")
	}
}

func TestHardLinkRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	write(t, target, "precious")
	link := filepath.Join(dir, "out")
	if err := os.Link(target, link); err != nil {
		t.Fatal(err)
	}
	refused(t, link, "has 2 hard links", target)
}

func TestFIFORefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	refused(t, fifo, "is not a regular file", "")
}

func TestDirectoryRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	refused(t, dir, "is not a regular file", "")
}

func TestOtherOwnerRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file away")
	}
	path := filepath.Join(t.TempDir(), "out")
	write(t, path, "precious")
	if err := os.Chown(path, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	refused(t, path, "is owned by uid 12345", path)
}

func TestExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	write(t, path, "old content")
	if err := closeAfter(Create(path)); err != nil {
		t.Fatal(err)
	}
	if got := content(t, path); got != "new" {
		t.Errorf("Create: %q, want the file truncated to %q", got, "new")
	}
	if err := closeAfter(Append(path)); err != nil {
		t.Fatal(err)
	}
	if got := content(t, path); got != "newnew" {
		t.Errorf("Append: %q, want %q", got, "newnew")
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("whole")); err != nil {
		t.Fatal(err)
	}
	if got := content(t, path); got != "whole" {
		t.Errorf("WriteFile: %q", got)
	}
	if m := mode(t, path); m != 0o640 {
		t.Errorf("WriteFile: mode %o, want the replaced file's 640", m)
	}
}

func TestAppendCreates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	for i := 0; i < 2; i++ {
		if err := closeAfter(Append(path)); err != nil {
			t.Fatal(err)
		}
	}
	if got := content(t, path); got != "newnew" {
		t.Errorf("%q, want %q", got, "newnew")
	}
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

// TestModes: new files are private in a shared directory (sticky,
// world-writable like /tmp) and 0644 under umask 022 elsewhere.
func TestModes(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	for _, c := range []struct {
		dir  fs.FileMode
		want fs.FileMode
	}{{0o755, 0o644}, {fs.ModeSticky | 0o777, 0o600}, {0o777, 0o600}} {
		dir := filepath.Join(t.TempDir(), "d")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, c.dir); err != nil {
			t.Fatal(err)
		}
		for name, open := range opens {
			path := filepath.Join(dir, name)
			if err := open(path); err != nil {
				t.Fatal(err)
			}
			if m := mode(t, path); m != c.want {
				t.Errorf("%s in a directory of mode %v: file mode %o, want %o", name, c.dir, m, c.want)
			}
		}
	}
}

// TestWriteFileAtomic: the file is replaced, not rewritten in place, so a
// reader holding the old file sees the old content whole, and no
// temporary file is left.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	write(t, path, "old content")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := WriteFile(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 64)
	n, _ := f.Read(b)
	if string(b[:n]) != "old content" {
		t.Errorf("the open old file reads %q: it was rewritten in place", b[:n])
	}
	if got := content(t, path); got != "new" {
		t.Errorf("%q, want %q", got, "new")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	if err := Check(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("a missing file: %v", err)
	}
	path := filepath.Join(dir, "file")
	write(t, path, "x")
	if err := Check(path); err != nil {
		t.Errorf("a regular file: %v", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if err := Check(link); err == nil {
		t.Error("a symbolic link passes")
	}
}

func TestClash(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte("x"), 0o644)
	other := filepath.Join(dir, "other")
	os.WriteFile(other, []byte("y"), 0o644)
	if err := Clash(filepath.Join(dir, ".", "in.jsonl"), other, in); err == nil {
		t.Error("the same file under another spelling was not refused")
	}
	if err := Clash(other, in); err != nil {
		t.Errorf("different files: %v", err)
	}
	if err := Clash(filepath.Join(dir, "new"), in); err != nil {
		t.Errorf("a new file: %v", err)
	}
}

// TestWriteWithError: a failed write leaves the old file whole and no
// temporary file behind.
func TestWriteWithError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	write(t, path, "old content")
	boom := errors.New("boom")
	err := WriteWith(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, "part of the new"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want the write's", err)
	}
	if got := content(t, path); got != "old content" {
		t.Errorf("%q after a failed write", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}
