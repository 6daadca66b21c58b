package e2e

// PMPI libraries preloaded into a run, to count or trace the MPI calls
// a rank makes without timing them.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"mpibench/mpi"
)

// PMPICounter is a PMPI library for LD_PRELOAD: it counts a rank's
// MPI_Barrier calls and its empty MPI_Sendrecv messages with IMB's barrier
// tag 1000 (the rounds of IMB's own barrier) and prints both at
// MPI_Finalize, so that a test sees which barrier ran without timing it.
const PMPICounter = `#include <mpi.h>
#include <stdio.h>
static long nbar, nimb;
int MPI_Barrier(MPI_Comm c) { nbar++; return PMPI_Barrier(c); }
int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int d, int stag, void *rb, int rc,
		 MPI_Datatype rt, int s, int rtag, MPI_Comm c, MPI_Status *status)
{
	if (stag == 1000 && rtag == 1000 && sc == 0)
		nimb++;
	return PMPI_Sendrecv(sb, sc, st, d, stag, rb, rc, rt, s, rtag, c, status);
}
int MPI_Finalize(void)
{
	int r;
	PMPI_Comm_rank(MPI_COMM_WORLD, &r);
	fprintf(stderr, "pmpi-count rank %d: MPI_Barrier %ld imb %ld\n", r, nbar, nimb);
	return PMPI_Finalize();
}
`

// BuildCounter compiles PMPICounter with this MPI's mpicc.
func BuildCounter(t *testing.T) string { return BuildPMPI(t, PMPICounter) }

// BuildPMPI compiles the PMPI library code with this MPI's mpicc.
func BuildPMPI(t *testing.T, code string) string {
	t.Helper()
	cc, err := exec.LookPath("mpicc." + mpi.Flavor)
	if err != nil {
		t.Skipf("SKIPPED LOUDLY: no mpicc.%s to build the PMPI counter: %v", mpi.Flavor, err)
	}
	dir := t.TempDir()
	src, so := filepath.Join(dir, "count.c"), filepath.Join(dir, "libcount.so")
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", so, src).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	return so
}

// PreloadedRun runs prog (mpibench where "") on np ranks with the PMPI
// library so preloaded; the run must succeed.
func PreloadedRun(t *testing.T, so string, np int, prog string, args ...string) Result {
	t.Helper()
	argv := LauncherArgs(np)
	if prog != "" {
		argv[len(argv)-1] = prog
	}
	r := ExecuteEnv(t, MpirunTimeout, []string{"LD_PRELOAD=" + so}, launcherPath, append(argv, args...)...)
	MustSucceed(t, r)
	return r
}

// BarrierCounts runs mpibench with the counter preloaded and returns
// every rank's MPI_Barrier calls and IMB barrier messages.
func BarrierCounts(t *testing.T, so string, args ...string) (bar, imb []int) {
	t.Helper()
	return CountedRun(t, so, 2, "", args...)
}

// CountedRun runs prog (mpibench where "") on np ranks with the counter
// preloaded and returns every rank's MPI_Barrier calls and IMB barrier
// messages.
func CountedRun(t *testing.T, so string, np int, prog string, args ...string) (bar, imb []int) {
	t.Helper()
	r := PreloadedRun(t, so, np, prog, args...)
	bar, imb = make([]int, np), make([]int, np)
	seen := 0
	re := regexp.MustCompile(`pmpi-count rank (\d+): MPI_Barrier (\d+) imb (\d+)`)
	for _, m := range re.FindAllStringSubmatch(r.Stderr, -1) {
		rank, _ := strconv.Atoi(m[1])
		if rank < np {
			bar[rank], _ = strconv.Atoi(m[2])
			imb[rank], _ = strconv.Atoi(m[3])
			seen++
		}
	}
	if seen != np {
		t.Fatalf("%s %v: want the counts of %d ranks on stderr, got %s", prog, args, np, r)
	}
	return bar, imb
}
