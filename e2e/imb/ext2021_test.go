package imb

// Integration tests of mpibench ext -imb 2021 (IMB-EXT 2021.11's
// definitions, imb/ext.go and suites/imb/kernel/rma.c): the same tables as Intel's
// IMB-EXT 2021.11 row for row, records that say which IMB ran, and a
// -check that the rma-offset mutant fails at every length that moves data.

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"mpibench/e2e"
)

// ext2021Plan is the plan of the side-by-side run: lengths where the
// volume bound of 1 MiB cuts the counts (65536 bytes: 16) and where it
// does not; 200 aggregate and 30 non-aggregate repetitions, so that a
// Window run with IMB 3.0's MSGSPERSAMPLE (200) would show; a -time bound
// no sample reaches on a loaded machine, so the counts are the plan's.
var ext2021Plan = []string{"-iter", "200,1,30", "-time", "100"}

// TestEXT2021SideBySide runs Intel's IMB-EXT 2021.11 and mpibench ext -imb
// 2021 on the same plan, without and with -off_cache 1,64, and requires
// the same header lines up to their values, and the same tables:
// benchmark, head (process count, mode), columns, length and repetition
// count of every row (-off_cache changes none).
func TestEXT2021SideBySide(t *testing.T) {
	e2e.NeedMPI(t)
	peer := e2e.NeedPeer(t, "IMB-EXT", e2e.PeerBinary("IMB-EXT"), "")
	for _, oc := range [][]string{nil, {"-off_cache", "1,64"}} {
		t.Run(fmt.Sprint(oc), func(t *testing.T) {
			plan := append(append([]string{"-msglen", e2e.Lengths(t, 0, 4, 64, 65536)}, ext2021Plan...), oc...)
			ext2021SideBySide(t, peer, plan)
		})
	}
}

// ext2021SideBySide compares one plan's runs (TestEXT2021SideBySide).
func ext2021SideBySide(t *testing.T, peer string, plan []string) {
	t.Helper()
	argv := e2e.LauncherArgs(2)
	argv[len(argv)-1] = peer
	theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, plan...)...)
	e2e.MustSucceed(t, theirs)
	js := filepath.Join(t.TempDir(), "o.jsonl")
	ours := e2e.Launch(t, 2, append([]string{"ext", "-imb", "2021", "-json", js}, plan...)...)
	e2e.MustSucceed(t, ours)
	if a, b := e2e.HeaderPattern(ours.Stdout), e2e.HeaderPattern(theirs.Stdout); !slices.Equal(a, b) {
		t.Errorf("header lines differ\n mpibench: %q\n IMB-EXT: %q", a, b)
	}
	sameRows(t, "np 2", nbcRows(t, ours.Stdout), "IMB-EXT", nbcRows(t, theirs.Stdout))
	recs := e2e.ReadJSONL[rec2021](t, js)
	if len(recs) != 44 { // Window 4 rows, 5 benchmarks × 2 modes × 4 lengths
		t.Errorf("%d records, want 44", len(recs))
	}
	for _, r := range recs {
		if r.Context.IMB != "2021" || r.Context.Options["imb"] != "2021" {
			t.Errorf("%v: context.imb %q, options %v; want 2021", r, r.Context.IMB, r.Context.Options)
		}
	}
}

// TestEXT2021Default: without -imb, ext keeps IMB 3.0's Window count
// (MSGSPERSAMPLE) and says 3.0; with -imb 2021 Window runs MSGS_NONAGGR.
func TestEXT2021Default(t *testing.T) {
	e2e.NeedMPI(t)
	for _, c := range []struct {
		imb  []string
		want string
		reps int
	}{{nil, "3.0", 20}, {[]string{"-imb", "2021"}, "2021", 3}} {
		recs := run2021(t, append([]string{"ext", "Window", "-msglen", e2e.Lengths(t, 4), "-iter", "20,1,3", "-time", "off"}, c.imb...)...)
		if len(recs) != 1 || recs[0].Reps != c.reps || recs[0].Context.IMB != c.want {
			t.Errorf("%v: records %v, want one Window row of %d repetitions, context.imb %s", c.imb, recs, c.reps, c.want)
		}
	}
}

// TestEXT2021CheckMutants runs ext -imb 2021 -check with the real loops
// and with the rma-offset mutant (every target displacement one item too
// far) at 1 and 5 bytes (4 and 8 for Accumulate), in both modes: the real
// loops show no defects, the mutant shows defects in every record that
// moves data, though every IMB 2021 transfer goes to offset 0.
func TestEXT2021CheckMutants(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	lens := e2e.Lengths(t, 1, 5)
	names := extIOBenchmarks("ext")
	for _, m := range []string{"", "rma-offset"} {
		t.Run("mutant="+m, func(t *testing.T) {
			t.Setenv(e2e.MutantEnv, m)
			js := filepath.Join(t.TempDir(), "o.jsonl")
			r := e2e.LaunchBin(t, bin, 2, append([]string{"ext", "-imb", "2021", "-check", "-msglen", lens,
				"-iter", "20,1,10", "-json", js}, names...)...)
			recs := ioReadRecords(t, js, false)
			if len(recs) != 20 {
				t.Errorf("%d records, want 20 (5 benchmarks, 2 modes, 2 lengths)", len(recs))
			}
			extIOCheckRun(t, r, recs, names, func(string) bool { return m != "" })
		})
	}
}
