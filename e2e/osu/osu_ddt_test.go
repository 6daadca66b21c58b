package osu

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/e2e"
)

// The OSU collectives with -D (osu/coll.go, mpi/osucoll.go): OSU 7.4's
// output and the very calls its binaries make.

// pmpiDDT is a PMPI library that prints, per rank, every change of the
// arguments of the collective calls made with a derived datatype: the
// call, its counts, and its types' sizes and extents. Calls with a
// predefined type (mpibench's own bookkeeping) are passed over.
const pmpiDDT = `#include <mpi.h>
#include <stdio.h>
#include <string.h>
static char last[256];
static int derived(MPI_Datatype t)
{
	int ni, na, nt, comb;
	PMPI_Type_get_envelope(t, &ni, &na, &nt, &comb);
	return comb != MPI_COMBINER_NAMED;
}
static void note(const char *call, int sc, MPI_Datatype st, int rc, MPI_Datatype rt)
{
	char s[256];
	int rank, ss, rs;
	MPI_Aint lb, se, re;
	if (!derived(st) && !derived(rt))
		return;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Type_size(st, &ss);
	PMPI_Type_size(rt, &rs);
	PMPI_Type_get_extent(st, &lb, &se);
	PMPI_Type_get_extent(rt, &lb, &re);
	snprintf(s, sizeof s, "pmpi-ddt rank %d: %s send %d x %d/%ld recv %d x %d/%ld", rank, call, sc, ss, (long)se,
		 rc, rs, (long)re);
	if (strcmp(s, last) != 0)
		fprintf(stderr, "%s\n", s);
	strcpy(last, s);
}
int MPI_Bcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm m)
{
	note("Bcast", c, t, c, t);
	return PMPI_Bcast(b, c, t, root, m);
}
int MPI_Ibcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm m, MPI_Request *rq)
{
	note("Ibcast", c, t, c, t);
	return PMPI_Ibcast(b, c, t, root, m, rq);
}
int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, MPI_Comm m)
{
	note("Allgather", sc, st, rc, rt);
	return PMPI_Allgather(sb, sc, st, rb, rc, rt, m);
}
int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, int root, MPI_Comm m)
{
	note("Gather", sc, st, rc, rt);
	return PMPI_Gather(sb, sc, st, rb, rc, rt, root, m);
}
int MPI_Ialltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, MPI_Comm m,
		  MPI_Request *rq)
{
	note("Ialltoall", sc, st, rc, rt);
	return PMPI_Ialltoall(sb, sc, st, rb, rc, rt, m, rq);
}
`

// buildDDTTracer compiles pmpiDDT with this MPI's mpicc.
func buildDDTTracer(t *testing.T) string { return e2e.BuildPMPI(t, pmpiDDT) }

// tracedRun runs prog (mpibench where "") on 2 ranks with the tracer
// preloaded; it returns the run and its traced lines, sorted.
func tracedRun(t *testing.T, so, prog string, args ...string) (e2e.Result, []string) {
	t.Helper()
	r := e2e.PreloadedRun(t, so, 2, prog, args...)
	calls := regexp.MustCompile(`(?m)^pmpi-ddt rank \d+: .*$`).FindAllString(r.Stderr, -1)
	slices.Sort(calls) // the ranks' lines interleave on stderr
	return r, calls
}

// lastColumn is every row's last field (-D's Transmit Size).
func lastColumn(out string) []string {
	var col []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(l, "#") {
			col = append(col, f[len(f)-1])
		}
	}
	return col
}

// TestOSUCollDDT runs collectives with -D next to OSU 7.4's binaries,
// both with the tracer preloaded: the same comment lines and columns, the
// same Transmit Size column, the same calls (count 1 of a derived type of
// the same size and extent on every rank, size by size), and records
// carrying -D and the transmit size of their row.
func TestOSUCollDDT(t *testing.T) {
	e2e.NeedMPI(t)
	so := buildDDTTracer(t)
	// Blocks beyond the messages: the buffers must reach them. OSU 7.4
	// types the file's blocks but the last (omb_ddt_assign's i - 1), and
	// mpibench all of them (osu/options.go, readIndexed), so their calls
	// differ; the Transmit Size (every block) is the same.
	indx := filepath.Join(t.TempDir(), "indx.txt")
	if err := os.WriteFile(indx, []byte("# displacement, block length\n0, 2\n40, 3\n90, 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"osu_alltoall", "-D", "indx:" + indx, "-m", "1:8"},
		{"osu_bcast", "-D", "cont", "-m", "1:64"},
		{"osu_allgather", "-D", "vect:8:4", "-m", "1:64", "-f"},
		{"osu_gather", "-D", "vect:4:1", "-m", "2:32", "-k", "fixed:1", "-z"},
		{"osu_ibcast", "-D", "vect:16:3", "-m", "8:64"},
		{"osu_ialltoall", "-D", "cont", "-T", "mpi_int", "-m", "4:16"},
	} {
		args = append(args, "-i", "3", "-x", "1")
		peer := e2e.PeerBinary(args[0])
		if peer == "" {
			t.Errorf("no %s for this MPI in ~/.cache/mpibench-peers: `bash /work/shared/peers/build.sh ~/.cache/mpibench-peers`", args[0])
			continue
		}
		js := filepath.Join(t.TempDir(), "osu.jsonl")
		ours, ourCalls := tracedRun(t, so, "", append(append([]string{"osu"}, args...), "-json", js)...)
		theirs, theirCalls := tracedRun(t, so, peer, args[1:]...)
		if a, b := osuCollShape(args[0], theirs.Stdout), osuCollShape(args[0], ours.Stdout); !slices.Equal(a, b) {
			t.Errorf("%v: OSU's shape\n%s\nmpibench's\n%s", args, strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
		col := lastColumn(ours.Stdout)
		if want := lastColumn(theirs.Stdout); !slices.Equal(col, want) {
			t.Errorf("%v: Transmit Size %v, OSU's %v", args, col, want)
		}
		if !strings.HasPrefix(args[2], "indx") && (len(ourCalls) == 0 || !slices.Equal(ourCalls, theirCalls)) {
			t.Errorf("%v: mpibench's calls with a derived type\n%s\nOSU's\n%s", args, strings.Join(ourCalls, "\n"),
				strings.Join(theirCalls, "\n"))
		}
		recs := e2e.ReadJSONL[result.Record](t, js)
		for i, r := range recs {
			if r.OSU == nil || r.OSU.DDT != args[2] || i >= len(col) || strconv.FormatInt(r.OSU.Transmit, 10) != col[i] {
				t.Errorf("%v: record %d: %+v, want -D %s and the row's transmit size", args, i, r.OSU, args[2])
			}
		}
		if len(recs) != len(col) {
			t.Errorf("%v: %d records, %d rows", args, len(recs), len(col))
		}
	}
}
