package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"mpibench/suites/osu"
)

// intelNames maps the program names of IMB 2021.11 to the mpibench
// command line that behaves as that program: mpi1 and ext with -imb 2021
// (IMB 2021.11's definitions and defaults), io as it is (mpibench io has
// IMB 3.0's IMB-IO only), and IMB 2021's own suites.
var intelNames = map[string][]string{
	"IMB-MPI1": {"mpi1", "-imb", "2021"},
	"IMB-EXT":  {"ext", "-imb", "2021"},
	"IMB-IO":   {"io"},
	"IMB-NBC":  {"nbc"},
	"IMB-RMA":  {"rma"},
	"IMB-MPI4": {"mpi4"},
	"IMB-P2P":  {"p2p"},
	"IMB-MT":   {"mt"},
}

// intelMissing are the Intel program names mpibench does not run (none
// now; IMB-MT was the last).
var intelMissing []string

// peerNames are the program names mpibench runs as, Intel's sorted, then
// OSU's in listing order: the links scripts/links.sh makes (it reads OSU's
// from mpibench list).
func peerNames() []string {
	names := sortedIntel()
	for _, b := range osu.Benchmarks() {
		names = append(names, b.Name)
	}
	return names
}

// dropIn rewrites the command line of a run under a peer's program name:
// the name the binary was run by (argv0, a symbolic link IMB-MPI1 or
// osu_latency, with or without a directory) or else the first argument
// (mpibench IMB-MPI1 ...). It returns args unchanged when neither is a
// peer's name, and an error for a name mpibench knows but does not run.
func dropIn(argv0 string, args []string) ([]string, bool, error) {
	name, rest := filepath.Base(argv0), args
	if !isPeer(name) {
		if len(args) == 0 || !isPeer(filepath.Base(args[0])) {
			return args, false, nil
		}
		name, rest = filepath.Base(args[0]), args[1:]
	}
	if slices.Contains(intelMissing, name) {
		return nil, true, fmt.Errorf("mpibench: %s is not in mpibench yet (its IMB 2021 programs here: %s)",
			name, strings.Join(sortedIntel(), ", "))
	}
	if cmd, ok := intelNames[name]; ok {
		return append(slices.Clone(cmd), rest...), true, nil
	}
	return append([]string{"osu", name}, rest...), true, nil
}

// isPeer says whether name is an Intel or OSU program name, spelled as
// the peer spells it.
func isPeer(name string) bool {
	if _, ok := intelNames[name]; ok || slices.Contains(intelMissing, name) {
		return true
	}
	if !strings.HasPrefix(name, "osu_") {
		return false
	}
	b, ok := osu.Lookup(name)
	return ok && b.Name == name
}

func sortedIntel() []string {
	var names []string
	for n := range intelNames {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
