package imb

// Tests that run the mpibench binary directly, without a launcher: help,
// list, version and bad subcommands never initialise MPI.

import (
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
)

func TestHelp(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	for _, arg := range []string{"-h", "--help", "help"} {
		r := e2e.Direct(t, arg)
		e2e.MustSucceed(t, r)
		for _, s := range []string{"Usage:", "mpibench mpi1", "mpibench list", "mpibench -h"} {
			if !strings.Contains(r.Stdout, s) {
				t.Errorf("mpibench %s: usage lacks %q:\n%s", arg, s, r.Stdout)
			}
		}
	}
}

func TestMPI1Help(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	for _, args := range [][]string{{"mpi1", "-h"}, {"mpi1", "PingPong", "-help"}, {"mpi1", "--help"}} {
		r := e2e.Direct(t, args...)
		e2e.MustSucceed(t, r)
		for _, s := range []string{"Usage:", "-npmin", "-multi", "-input", "-msglen", "-map", "-check", "-json", "-h"} {
			if !strings.Contains(r.Stdout, s) {
				t.Errorf("mpibench %s: usage lacks %q:\n%s", strings.Join(args, " "), s, r.Stdout)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	r := e2e.Direct(t, "version")
	e2e.MustSucceed(t, r)
	if !strings.HasPrefix(r.Stdout, "mpibench ") {
		t.Errorf("version: got %q", r.Stdout)
	}
}

// TestList: all 13 IMB-MPI1 benchmarks, one line each, with their class
// and the MPI calls they are based on.
func TestList(t *testing.T) {
	r := e2e.Direct(t, "list")
	e2e.MustSucceed(t, r)
	for _, want := range [][]string{
		{"skampi", "Send_Recv_AT", "pingpong", "MPI_Send/MPI_Recv(MPI_ANY_TAG)"},
		{"skampi", "Waitsome", "master-worker", "MPI_Waitsome"},
		{"pgmpi", "MPI_Reduce_scatter_block", "function", "-", "MPI_Reduce_scatter_block"},
		{"pgmpi", "Reduce_scatter_as_Reduce_Scatterv", "mockup", "GL17", "MPI_Reduce,", "MPI_Scatterv"},
	} {
		if !hasFieldsLine(r.Stdout, want) {
			t.Errorf("list lacks the line %q:\n%s", want, r.Stdout)
		}
	}
	lines := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "mpi1" {
			if _, dup := lines[f[1]]; dup {
				t.Errorf("benchmark %s listed twice", f[1])
			}
			lines[f[1]] = l
		}
	}
	all := slices.Concat(benchTable, benchTable2021) // IMB 3.0's and IMB 2021's
	if len(lines) != len(all) {
		t.Errorf("%d mpi1 benchmarks listed, want %d:\n%s", len(lines), len(all), r.Stdout)
	}
	for _, b := range all {
		l, ok := lines[b.name]
		if !ok {
			t.Errorf("%s not listed", b.name)
			continue
		}
		want := append([]string{b.title}, b.calls...)
		if b.reduction {
			want = append(want, "MPI_FLOAT")
		}
		for _, s := range want {
			if !strings.Contains(l, s) {
				t.Errorf("list line %q lacks %q", l, s)
			}
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	r := e2e.Direct(t, "frobnicate")
	e2e.NoPanic(t, r)
	if r.Code != 2 || !strings.Contains(r.Stderr, "frobnicate") {
		t.Errorf("unknown subcommand: want exit 2 and the name on stderr, got %s", r)
	}
	r = e2e.Direct(t)
	e2e.NoPanic(t, r)
	if r.Code != 2 || !strings.Contains(r.Stderr, "Usage:") {
		t.Errorf("no subcommand: want exit 2 and the usage on stderr, got %s", r)
	}
}

// hasFieldsLine tells whether out has a line of exactly these fields.
func hasFieldsLine(out string, fields []string) bool {
	for _, l := range strings.Split(out, "\n") {
		if slices.Equal(strings.Fields(l), fields) {
			return true
		}
	}
	return false
}
