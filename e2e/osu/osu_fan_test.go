package osu

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mpibench/e2e"
)

// The congestion tests (osu_bw_fan_in, osu_bw_fan_out), the start-up
// tests (osu_init, osu_hello) and osu_latency_mp next to OSU 7.4's own
// binaries.

// fakeNodes is a PMPI library for LD_PRELOAD that names the node of rank r
// "node" r/FAKE_PPN (FAKE_PPN 1 when unset) in MPI_Get_processor_name:
// the fan tests need two nodes at least (omb_fan_init), and this machine
// is one. mpibench and OSU's binaries both take their node names from
// MPI_Get_processor_name, so both see the same nodes.
const fakeNodes = `#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int MPI_Get_processor_name(char *name, int *len)
{
	int r, ppn = 1;
	const char *e = getenv("FAKE_PPN");
	if (e)
		ppn = atoi(e);
	PMPI_Comm_rank(MPI_COMM_WORLD, &r);
	*len = snprintf(name, MPI_MAX_PROCESSOR_NAME, "node%03d", r / ppn);
	return MPI_SUCCESS;
}
`

// sideBySide runs mpibench osu BENCH and OSU's binary with the same
// flags and environment; both must succeed and print the same shape, and
// mpibench's rows must be its records.
func sideBySide(t *testing.T, np int, env []string, bench string, args ...string) (ours, theirs e2e.Result) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "osu.jsonl")
	argv := e2e.LauncherArgs(np)
	ours = e2e.ExecuteEnv(t, e2e.MpirunTimeout, env, e2e.Launcher(),
		append(argv, append([]string{"osu", bench, "-json", js}, args...)...)...)
	e2e.MustSucceed(t, ours)
	if bench != "osu_hello" && bench != "osu_init" {
		osuRecordsMatch(t, bench, ours.Stdout, e2e.ReadJSONL[osuRecord](t, js))
	}
	peer := e2e.PeerBinary(bench)
	if peer == "" {
		t.Errorf("no %s for this MPI in ~/.cache/mpibench-peers: `bash /work/shared/peers/build.sh ~/.cache/mpibench-peers`", bench)
		return
	}
	argv = e2e.LauncherArgs(np)
	argv[len(argv)-1] = peer
	theirs = e2e.ExecuteEnv(t, e2e.MpirunTimeout, env, e2e.Launcher(), append(argv, args...)...)
	e2e.MustSucceed(t, theirs)
	if a, b := osuShape(theirs.Stdout), osuShape(ours.Stdout); !slices.Equal(a, b) {
		t.Errorf("%s %v: OSU's shape\n%s\nmpibench's\n%s", bench, args, strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	return ours, theirs
}

// TestOSUFanShape: osu_bw_fan_in and osu_bw_fan_out on 3 ranks (2 where
// the launcher allows no more), each rank its own node, next to OSU's
// binaries; and without distinct nodes mpibench refuses with OSU's reason
// and exit code 2.
func TestOSUFanShape(t *testing.T) {
	e2e.FailFast(t) // its refusal on one node exits non-zero on every rank
	e2e.NeedMPI(t)
	so := e2e.BuildPMPI(t, fakeNodes)
	env := []string{"LD_PRELOAD=" + so}
	np := min(3, e2e.MaxRanks())
	sideBySide(t, np, env, "osu_bw_fan_in", "-m", "1:16", "-i", "4", "-x", "1", "-W", "4", "-z")
	sideBySide(t, np, env, "osu_bw_fan_out", "-m", "1:16", "-i", "4", "-x", "1", "-W", "4", "-b", "multiple",
		"-T", "mpi_int", "-D", "cont")
	r := e2e.Launch(t, 2, "osu", "osu_bw_fan_in", "-m", "1:4", "-i", "2")
	if r.Code != 2 || !strings.Contains(r.Stderr, "Please run this benchmark on more than 1 node") {
		t.Errorf("one node: want exit 2 naming OSU's reason, got %s", r)
	}
}

// TestOSUStartupShape: osu_init's and osu_hello's lines next to OSU's;
// osu_init's figures are whole milliseconds with min <= avg <= max, and
// its record holds every rank's MPI_Init time.
func TestOSUStartupShape(t *testing.T) {
	e2e.NeedMPI(t)
	np := min(3, e2e.MaxRanks())
	ours, _ := sideBySide(t, np, nil, "osu_hello")
	if want := fmt.Sprintf("# OSU MPI Hello World Test v7.4\nThis is a test with %d processes\n", np); ours.Stdout != want {
		t.Errorf("osu_hello printed %q, want %q", ours.Stdout, want)
	}
	js := filepath.Join(t.TempDir(), "init.jsonl")
	r := e2e.Launch(t, np, "osu", "osu_init", "-json", js)
	e2e.MustSucceed(t, r)
	var lo, hi, avg int
	lines := strings.Split(r.Stdout, "\n")
	if len(lines) != 3 || lines[0] != "# OSU MPI Init Test v7.4" {
		t.Fatalf("osu_init printed %q", r.Stdout)
	}
	if n, err := fmt.Sscanf(lines[1], "nprocs: "+fmt.Sprint(np)+", min: %d ms, max: %d ms, avg: %d ms", &lo, &hi, &avg); n != 3 ||
		err != nil || lo > avg || avg > hi || hi <= 0 {
		t.Errorf("osu_init line %q: %v", lines[1], err)
	}
	recs := e2e.ReadJSONL[osuRecord](t, js)
	if len(recs) != 1 || len(recs[0].Samples) != np || recs[0].Class != "startup" {
		t.Fatalf("osu_init records %+v", recs)
	}
	for _, us := range recs[0].Samples {
		if ms := int(us / 1000); us <= 0 || ms < lo || ms > hi {
			t.Errorf("rank's MPI_Init %v µs outside the line's %d..%d ms", us, lo, hi)
		}
	}
	peer := e2e.PeerBinary("osu_init")
	if peer == "" {
		t.Fatal("no osu_init among the peers")
	}
	argv := e2e.LauncherArgs(np)
	argv[len(argv)-1] = peer
	theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), argv...)
	e2e.MustSucceed(t, theirs)
	if a, b := osuShape(theirs.Stdout), osuShape(r.Stdout); len(a) != 2 || len(b) != 2 || a[0] != b[0] ||
		strings.Fields(a[1])[0] != strings.Fields(b[1])[0] {
		t.Errorf("OSU's osu_init\n%s\nmpibench's\n%s", theirs.Stdout, r.Stdout)
	}
}

// TestOSULatencyMPShape: osu_latency_mp next to OSU's binary, with -c
// and -z and with -t R; mpibench's forked processes are ended with the
// test, so its run does not wait out their 2 s sleep as OSU's does.
func TestOSULatencyMPShape(t *testing.T) {
	e2e.NeedMPI(t)
	ours, _ := sideBySide(t, 2, nil, "osu_latency_mp", "-m", "0:16", "-i", "4", "-x", "1", "-c", "-z", "-t", "3")
	if !strings.HasPrefix(ours.Stdout, "# Number of forked processes in sender: 0\n# Number of forked processes in receiver: 3\n") {
		t.Errorf("osu_latency_mp's first lines: %q", ours.Stdout)
	}
	if ours.Dur > 2*time.Second {
		t.Errorf("osu_latency_mp took %v: its forked processes outlived the test", ours.Dur)
	}
	r := e2e.Launch(t, 2, "osu", "osu_latency_mp", "-m", "1:8", "-i", "4", "-x", "1", "-T", "mpi_int")
	e2e.MustSucceed(t, r)
	for _, line := range strings.Split(r.Stdout, "\n") {
		// osu_latency_mp.c prints the latency in 10 columns without -c.
		if line != "" && !strings.HasPrefix(line, "#") && len(line) != 20 {
			t.Errorf("row %q: want 20 characters (%%-10d%%10.2f)", line)
		}
	}
}
