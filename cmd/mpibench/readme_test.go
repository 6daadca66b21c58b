package main

// README.md is checked against the code: its usage section is the
// registry's help, and its layout table names every package.

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestREADMEUsage: the block between the usage markers is `mpibench -h`
// indented by four spaces, and every command of the registry is in it.
func TestREADMEUsage(t *testing.T) {
	s := readme(t)
	_, after, ok := strings.Cut(s, "<!-- usage:")
	block, _, ok2 := strings.Cut(after, "<!-- end usage -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no <!-- usage: ... --> ... <!-- end usage --> block")
	}
	_, block, _ = strings.Cut(block, "-->\n")
	var want strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(usage(), "\n"), "\n") {
		if l != "" {
			l = "    " + l
		}
		want.WriteString(l + "\n")
	}
	if block != want.String() {
		t.Errorf("README.md's usage differs from mpibench -h; want:\n%s\ngot:\n%s", want.String(), block)
	}
	for _, c := range commands() {
		if !strings.Contains(block, "mpibench "+c.Synopsis) {
			t.Errorf("README.md's usage lacks the command %q", c.Name)
		}
	}
}

// TestREADMELayout: the layout table names every Go package of the
// module, and nothing else.
func TestREADMELayout(t *testing.T) {
	s := readme(t)
	_, table, ok := strings.Cut(s, "## Layout\n")
	if !ok {
		t.Fatal("README.md has no Layout section")
	}
	var named []string
	cell := regexp.MustCompile("^\\| ([^|]+) \\|")
	for _, l := range strings.Split(table, "\n") {
		m := cell.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(l, "| ---") || m[1] == "package" {
			continue
		}
		for _, n := range strings.Split(m[1], ",") {
			named = append(named, strings.Trim(strings.TrimSpace(n), "`"))
		}
	}
	pkgs := goPackages(t, "../..")
	for _, p := range pkgs {
		if !slices.Contains(named, p) {
			t.Errorf("README.md's layout table lacks the package %s", p)
		}
	}
	for _, n := range named {
		if !slices.Contains(pkgs, n) {
			t.Errorf("README.md's layout table names %s, which is no package", n)
		}
	}
}

// goPackages lists the directories under root that hold non-test Go
// files, relative to root.
func goPackages(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir, err := filepath.Rel(root, filepath.Dir(path))
		if err == nil && !slices.Contains(out, filepath.ToSlash(dir)) {
			out = append(out, filepath.ToSlash(dir))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
