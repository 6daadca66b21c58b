package dropin

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
)

// link makes a symbolic link named name to the mpibench binary under test.
func link(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(e2e.Bin(), p); err != nil {
		t.Fatal(err)
	}
	return p
}

// shape is what two runs of the same plan share: every table's title,
// head, columns and the #bytes and #repetitions of its rows (IMB's
// "Invalid benchmark name" lines, which the header checks, left out).
func shape(t *testing.T, out string) []string {
	t.Helper()
	var kept []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "Invalid benchmark name ") {
			kept = append(kept, l)
		}
	}
	var s []string
	for _, tab := range e2e.ParseTables(t, strings.Join(kept, "\n")) {
		s = append(s, tab.Title, strings.Join(tab.Head, "|"), strings.Join(tab.Columns, " "))
		for _, r := range tab.Rows {
			s = append(s, r[0]+" "+r[1])
		}
	}
	return s
}

const plan = "PingPong -msglog 0:2 -iter 10"

// TestIMBMPI1ByName: a link named IMB-MPI1 and `mpibench IMB-MPI1` run
// mpi1 -imb 2021: the same tables, IMB 2021.11's header (no IMB 3.0 line)
// and MB = 10^6; the unknown flag IMB ignores is its "Invalid benchmark
// name" lines; mpibench mpi1 itself stays IMB 3.0 and says so.
func TestIMBMPI1ByName(t *testing.T) {
	e2e.NeedMPI(t)
	args := strings.Fields(plan)
	want := e2e.Launch(t, 2, append([]string{"mpi1", "-imb", "2021"}, args...)...)
	e2e.MustSucceed(t, want)
	for _, name := range []string{"link", "argument"} {
		var r e2e.Result
		if name == "link" {
			r = e2e.LaunchBin(t, link(t, "IMB-MPI1"), 2, append(args, "-foo", "3")...)
		} else {
			r = e2e.Launch(t, 2, append([]string{"IMB-MPI1"}, append(args, "-foo", "3")...)...)
		}
		e2e.MustSucceed(t, r)
		if got, w := shape(t, r.Stdout), shape(t, want.Stdout); !slices.Equal(got, w) {
			t.Errorf("%s: tables %q, want mpi1 -imb 2021's %q", name, got, w)
		}
		for _, line := range []string{"(IMB 2021.11), MPI-1 part", "Mbytes/sec",
			"# PingPong\nInvalid benchmark name -foo\nInvalid benchmark name 3\n"} {
			if !strings.Contains(r.Stdout, line) {
				t.Errorf("%s: no %q in\n%s", name, line, r.Stdout)
			}
		}
		if strings.Contains(r.Stdout, "IMB 3.0's definitions") {
			t.Errorf("%s: the IMB 3.0 line in an IMB 2021 run", name)
		}
	}
	old := e2e.Launch(t, 2, append([]string{"mpi1"}, args...)...)
	e2e.MustSucceed(t, old)
	if !strings.Contains(old.Stdout, "# IMB 3.0's definitions; IMB 2021.11's: add -imb 2021, or run as IMB-MPI1\n") {
		t.Errorf("mpi1: no IMB 3.0 line in\n%s", e2e.Tail(old.Stdout, 2000))
	}
	if bad := e2e.Launch(t, 2, append([]string{"mpi1", "-imb", "2021"}, append(args, "-foo")...)...); bad.Code != 2 {
		t.Errorf("mpi1 -imb 2021 -foo: %v; want exit 2 (strict without the Intel name)", bad)
	}
}

// TestHarnessLines: the command lines harnesses give IMB-MPI1 (Ramble's
// pingpong, multi-pingpong and collective workloads; PerfKitBenchmarker's,
// with -show_tail yes, which IMB 2021 ignores; -msglen lengths with k
// suffixes), scaled to 2 ranks, through a link named IMB-MPI1 and through
// Intel's IMB-MPI1 2021.11: the same header lines up to their values and
// the same tables.
func TestHarnessLines(t *testing.T) {
	e2e.NeedMPI(t)
	peer := e2e.NeedPeer(t, "IMB-MPI1", e2e.PeerBinary("IMB-MPI1"), "")
	lens := filepath.Join(t.TempDir(), "lens")
	if err := os.WriteFile(lens, []byte("# lengths\n0\n1k\n2 K\n4KB\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ours := link(t, "IMB-MPI1")
	for name, line := range map[string]string{
		"ramble-pingpong":       "Pingpong -msglog 1:3 -iter 10",
		"ramble-multi-pingpong": "Pingpong -msglog 1:3 -iter 10 -multi 0 -map 1x2",
		"ramble-collective":     "Allgather -msglog 1:3 -iter 10 -npmin 2",
		"pkb": "-msglog 1:2 -multi 0 -time 20 -off_cache -1 -iter 10 -iter_policy off -zero_size off " +
			"-show_tail yes -map 1x2 PingPong",
		"msglen": "Sendrecv -iter 10 -msglen " + lens,
	} {
		t.Run(name, func(t *testing.T) {
			args := strings.Fields(line)
			theirs := e2e.LaunchBin(t, peer, 2, args...)
			e2e.MustSucceed(t, theirs)
			r := e2e.LaunchBin(t, ours, 2, args...)
			e2e.MustSucceed(t, r)
			if a, b := e2e.HeaderPattern(r.Stdout), e2e.HeaderPattern(theirs.Stdout); !slices.Equal(a, b) {
				t.Errorf("header lines differ\n mpibench: %q\n IMB-MPI1: %q", a, b)
			}
			if a, b := shape(t, r.Stdout), shape(t, theirs.Stdout); !slices.Equal(a, b) {
				t.Errorf("tables differ\n mpibench: %q\n IMB-MPI1: %q", a, b)
			}
		})
	}
}

// TestOSUByName: a link named osu_latency runs mpibench osu osu_latency,
// with OSU's flags and output, and ignores an operand after the options
// as OSU 7.4 built without accelerators does.
func TestOSUByName(t *testing.T) {
	e2e.NeedMPI(t)
	args := []string{"-m", "8:8", "-i", "10", "-x", "1"}
	r := e2e.LaunchBin(t, link(t, "osu_latency"), 2, append(args, "extra")...)
	e2e.MustSucceed(t, r)
	want := e2e.Launch(t, 2, append([]string{"osu", "osu_latency"}, args...)...)
	e2e.MustSucceed(t, want)
	head := func(out string) string { before, _, _ := strings.Cut(out, "\n8 "); return before }
	if !strings.Contains(r.Stdout, "# OSU MPI Latency Test v7.4\n") || head(r.Stdout) != head(want.Stdout) ||
		!strings.Contains(r.Stdout, "\n8 ") {
		t.Errorf("osu_latency link:\n%s\nwant as mpibench osu osu_latency:\n%s", r.Stdout, want.Stdout)
	}
}

// TestIMBMT: IMB-MT, a link or the first argument, runs mpibench mt.
func TestIMBMT(t *testing.T) {
	e2e.NeedMPI(t)
	args := strings.Fields("PingPongMT -count 1 -repeat 5 -warmup 1 -noheader")
	want := e2e.Launch(t, 2, append([]string{"mt"}, args...)...)
	e2e.MustSucceed(t, want)
	head := func(out string) string { before, _, _ := strings.Cut(out, "#bytes"); return before }
	for _, r := range []e2e.Result{
		e2e.LaunchBin(t, link(t, "IMB-MT"), 2, args...),
		e2e.Launch(t, 2, append([]string{"IMB-MT"}, args...)...),
	} {
		e2e.MustSucceed(t, r)
		if head(r.Stdout) != head(want.Stdout) || !strings.Contains(r.Stdout, "# Benchmarking PingPongMT") {
			t.Errorf("IMB-MT:\n%s\nwant as mpibench mt:\n%s", r.Stdout, want.Stdout)
		}
	}
}

// TestIMBP2PByName: a link named IMB-P2P ignores an unknown flag and
// name without a word, as Intel's IMB-P2P 2021.11 does: the same header
// lines up to their values and the same tables.
func TestIMBP2PByName(t *testing.T) {
	e2e.NeedMPI(t)
	peer := e2e.NeedPeer(t, "IMB-P2P", e2e.PeerBinary("IMB-P2P"), "")
	args := strings.Fields("PingPong -msglog 0:2 -iter 10 -show_tail yes")
	theirs := e2e.LaunchBin(t, peer, 2, args...)
	e2e.MustSucceed(t, theirs)
	r := e2e.LaunchBin(t, link(t, "IMB-P2P"), 2, args...)
	e2e.MustSucceed(t, r)
	e2e.SameHeader(t, r.Stdout, "IMB-P2P", theirs.Stdout)
	if a, b := shape(t, r.Stdout), shape(t, theirs.Stdout); !slices.Equal(a, b) {
		t.Errorf("tables differ\n mpibench: %q\n IMB-P2P: %q", a, b)
	}
}

// TestLinksScript: scripts/links.sh (make links) makes a link per Intel
// program mpibench runs and per OSU test, each to the binary.
func TestLinksScript(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "peers")
	r := e2e.Execute(t, e2e.DirectTimeout, "bash", filepath.Join("..", "..", "scripts", "links.sh"), e2e.Bin(), dir)
	e2e.MustSucceed(t, r)
	list := e2e.Direct(t, "list")
	e2e.MustSucceed(t, list)
	want := []string{"IMB-EXT", "IMB-IO", "IMB-MPI1", "IMB-MPI4", "IMB-MT", "IMB-NBC", "IMB-P2P", "IMB-RMA"}
	for _, line := range strings.Split(list.Stdout, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "osu" {
			want = append(want, f[1])
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
		if target, err := filepath.EvalSymlinks(filepath.Join(dir, e.Name())); err != nil || target != e2e.Bin() {
			if real, _ := filepath.EvalSymlinks(e2e.Bin()); target != real {
				t.Errorf("%s -> %s, %v; want %s", e.Name(), target, err, e2e.Bin())
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(want) < 7+30 {
		t.Errorf("links %q, want %q", got, want)
	}
}
