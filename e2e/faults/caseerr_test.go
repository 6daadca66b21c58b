package faults

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"mpibench/e2e"
	"mpibench/mpi"
	"mpibench/suites/imb/kernel"
)

// skampiCaseErr is a SKaMPI configuration of one ping-pong at 4096 bytes.
const skampiCaseErr = `node n
network n
user u
epsilon 0.1
minreps 4
maxreps 16
timelimit 600
measure Pingpong_Send_Recv pingpong Send_Recv none len=4096
`

// caseErrCase is one run of TestCaseError: the command words, its
// arguments (dir: where it writes files it must remove again; out: where
// it keeps its results) and what rank 1's line says after
// "mpibench <cmd>: rank 1: ".
type caseErrCase struct {
	name, cmd string
	args      func(dir, out string) []string
	want      string
}

// caseErrCases cover every MPI suite, each at its first timed loop; lens
// is a -msglen file of one length, 4096 bytes, ski a SKaMPI configuration
// (skampiCaseErr).
func caseErrCases(lens, ski string) []caseErrCase {
	msglen := func(args ...string) func(string, string) []string {
		return func(string, string) []string { return append(args, "-msglen", lens) }
	}
	return []caseErrCase{
		{"mpi1", "mpi1", msglen("mpi1", "PingPong"),
			`PingPong \(warm-up\), 4096 bytes, 2 processes: MPI_Send: `},
		// Reduce_local runs the IMB 2021 kernels (kernels2021.c).
		// IMB 2021 runs its -time probe before the warm-up of a length, so
		// the probe's call is the first to fail (imb/warmup2021.go).
		{"mpi1-2021", "mpi1", msglen("mpi1", "Reduce_local", "-imb", "2021"),
			`Reduce_local, 4096 bytes, 2 processes: MPI_Send: `},
		{"ext", "ext", msglen("ext", "Unidir_Put"),
			`Unidir_Put \(warm-up\), 4096 bytes, 2 processes: MPI_Send: `},
		{"io", "io", func(d, _ string) []string {
			return []string{"io", "P_Write_indv", "-npmin", "2", "-msglen", lens, "-iodir", d}
		}, `P_Write_Indv \(aggregate\), 4096 bytes, 2 processes: MPI_Send of \S+ at an unknown offset: `},
		{"beff", "beff", func(string, string) []string { return []string{"beff", "-mem", "1"} },
			`cart-1d-x \(sendrecv\), 1 byte, 2 processes: MPI_Send: `},
		{"beffio", "beffio", func(d, _ string) []string {
			return []string{"beffio", "-T", "1", "-mem", "16", "-disk", "128M", "-iodir", d}
		}, `p00 \(write\), 1048576 bytes, 2 processes: MPI_Send of \S+, call 1 of pattern 0, at an unknown offset: `},
		{"p2p", "p2p", msglen("p2p", "PingPong"),
			`PingPong, 4096 bytes, 2 processes: MPI_Send: `},
		{"nbc", "nbc", msglen("nbc", "Ibcast"),
			`Ibcast \(non-blocking\), 4096 bytes, 2 processes: MPI_Send: `},
		{"mpi4", "mpi4", msglen("mpi4", "Bcast_persist"),
			`Bcast_persist \(non-blocking\), 4096 bytes, 2 processes: MPI_Send: `},
		{"rma", "rma", msglen("rma", "Unidir_put"),
			`Unidir_put \(non-aggregate\), 4096 bytes, 2 processes: MPI_Send: `},
		{"skampi", "skampi", func(_, out string) []string {
			return []string{"skampi", "-config", ski, "-o", filepath.Join(out, "sk.jsonl")}
		}, `Pingpong_Send_Recv, 4096 bytes, 2 processes: measure: warm-up: MPI_Send: `},
		{"guidelines", "guidelines measure", func(_, out string) []string {
			return []string{"guidelines", "measure", "-calls", "MPI_Bcast", "-sizes", "4096", "-reps", "5", "-o", out}
		}, `MPI_Bcast, 4096 bytes, 2 processes: MPI_Send: `},
		{"osu-pt2pt", "osu", func(string, string) []string { return []string{"osu", "osu_latency", "-m", "4096:4096"} },
			`osu_latency \(MPI_CHAR\), 4096 bytes, 2 processes: MPI_Send: `},
		{"osu-coll", "osu", func(string, string) []string {
			return []string{"osu", "osu_allreduce", "-m", "4096:4096", "-T", "mpi_float"}
		}, `osu_allreduce \(MPI_FLOAT\), 4096 bytes, 2 processes: MPI_Send: `},
		{"links", "links", func(string, string) []string {
			return []string{"links", "-size", "1024", "-iters", "3", "-window", "4"}
		}, `links \(distance 1\), 1024 bytes, 2 processes: MPI_Send: `},
	}
}

// TestCaseError: an MPI call that fails inside a case (the mutant build's
// mpi-error: rank 1 sends to a rank its communicator lacks, at the entry
// of every timed loop) reaches the user with the suite, the benchmark, the
// length, the process count and the rank, and ends every rank through
// MPI_Abort (exit code 1 from the launcher, within the launch timeout),
// without a Go panic and without leaving files. Each suite's case fails
// when its kernel lacks the hook (the job then succeeds) or its driver
// returns the error without its case.
func TestCaseError(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	bin := e2e.MutantBinary(t)
	tmp := t.TempDir()
	lens, ski := filepath.Join(tmp, "msglen"), filepath.Join(tmp, "t.ski")
	if err := os.WriteFile(lens, []byte("4096\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ski, []byte(skampiCaseErr), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range caseErrCases(lens, ski) {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "mpi4" && kernel.PersistAPI() == "" {
				t.Skipf("this %s build has no persistent collectives: mpi4 measures nothing", mpi.Flavor)
			}
			t.Setenv(e2e.MutantEnv, "mpi-error")
			dir := t.TempDir()
			r := e2e.LaunchBin(t, bin, 2, c.args(dir, t.TempDir())...)
			e2e.NoPanic(t, r)
			if r.Code != 1 {
				t.Errorf("want exit code 1 (MPI_Abort), got %s", r)
			}
			re := regexp.MustCompile(`(?m)^mpibench ` + c.cmd + `: rank 1: ` + c.want)
			if !re.MatchString(r.Stderr) {
				t.Errorf("stderr does not match %q:\n%s", re, r)
			}
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("files left in %s: %v", dir, left)
			}
		})
	}
}
