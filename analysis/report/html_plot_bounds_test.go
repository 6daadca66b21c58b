package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WritePNG refuses a directory that is a symbolic link, even to a
// directory, and writes nothing through it; it creates a missing one.
func TestWritePNGLink(t *testing.T) {
	ms := Plots([]Input{reportAll("a.jsonl", "hostA")})
	base := t.TempDir()
	target := filepath.Join(base, "elsewhere")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "plots")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	paths, err := WritePNG(link, ms)
	if err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") {
		t.Errorf("WritePNG into a link: %v, %v", paths, err)
	}
	if got, _ := os.ReadDir(target); len(got) > 0 {
		t.Errorf("%d files written through the link", len(got))
	}
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := WritePNG(file, ms); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("WritePNG into a file: %v", err)
	}
	fresh := filepath.Join(base, "new", "dir")
	if paths, err := WritePNG(fresh, ms[:1]); err != nil || len(paths) != 1 {
		t.Errorf("WritePNG into a new directory: %v, %v", paths, err)
	}
}
