package main

import (
	"strings"
	"testing"
)

// TestLookup: the longest registered name that starts the command line
// runs, the aliases of help and version find them, and every name is
// registered once.
func TestLookup(t *testing.T) {
	for _, c := range []struct {
		args []string
		name string
		used int
	}{
		{[]string{"guidelines", "check", "d"}, "guidelines check", 2},
		{[]string{"guidelines", "nrep"}, "guidelines", 1},
		{[]string{"mpi1", "check"}, "mpi1", 1},
		{[]string{"--help"}, "-h", 1},
		{[]string{"-version"}, "version", 1},
		{[]string{"beffio", "-h"}, "beffio", 1},
	} {
		got, n := lookup(c.args)
		if got == nil || got.Name != c.name || n != c.used {
			t.Errorf("lookup(%q) = %v, %d; want %s, %d", c.args, got, n, c.name, c.used)
		}
	}
	if got, _ := lookup([]string{"check"}); got != nil {
		t.Errorf("lookup(check) = %s, want none", got.Name)
	}
	seen := map[string]bool{}
	for _, c := range commands() {
		if seen[c.Name] || c.Main == nil || c.Summary == "" || !strings.HasPrefix(c.Synopsis, c.Name) {
			t.Errorf("registry entry %+v: a repeated name, no Main or summary, or a synopsis not starting with its name", c)
		}
		seen[c.Name] = true
	}
}
