package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -format png into a -o that is a symbolic link to a directory: exit 2,
// nothing written through the link.
func TestReportPNGLink(t *testing.T) {
	a := reportFile(t, "a.jsonl", "hostA", 1)
	base := t.TempDir()
	target := filepath.Join(base, "elsewhere")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "plots")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := reportRun("report", a, "-format", "png", "-o", link)
	if code != 2 || !strings.Contains(stderr, link+" is a symbolic link") {
		t.Errorf("want exit 2 naming the link, got %d: %s", code, stderr)
	}
	if got, _ := os.ReadDir(target); len(got) > 0 {
		t.Errorf("%d files written through the link", len(got))
	}
	// A real directory still gets the plots.
	real := filepath.Join(base, "real")
	if code, _, stderr := reportRun("report", a, "-format", "png", "-o", real); code != 0 {
		t.Errorf("png into a new directory: %d %s", code, stderr)
	}
	if got, _ := os.ReadDir(real); len(got) == 0 {
		t.Error("no plots written")
	}
}
