package main

// README.md is checked against the code: its usage section is the
// registry's help. The documents under docs/ that are made from the code
// are checked in docs_test.go.

import (
	"os"
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

// TestREADMELength: the README stays the short entry a newcomer reads;
// manuals and measurement logs belong under docs/.
func TestREADMELength(t *testing.T) {
	if n := strings.Count(readme(t), "\n"); n > 300 {
		t.Errorf("README.md has %d lines, more than 300: move the detail into docs/", n)
	}
}
