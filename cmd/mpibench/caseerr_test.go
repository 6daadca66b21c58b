package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestCaseError: an MPI call that fails inside a case (the mutant build's
// mpi-error: rank 1 sends to a rank its communicator lacks, at the entry
// of every timed loop) reaches the user with the suite, the benchmark, the
// length, the process count and the rank, and ends every rank through
// MPI_Abort (exit code 1 from the launcher), without leaving files.
func TestCaseError(t *testing.T) {
	bin := mutantBinary(t)
	lens := filepath.Join(t.TempDir(), "msglen")
	if err := os.WriteFile(lens, []byte("4096\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args func(dir string) []string
		want string // after "mpibench <suite>: rank 1: "
	}{
		{"mpi1", func(string) []string { return []string{"mpi1", "PingPong", "-msglen", lens} },
			`PingPong \(warm-up\), 4096 bytes, 2 processes: MPI_Send: `},
		{"ext", func(string) []string { return []string{"ext", "Unidir_Put", "-msglen", lens} },
			`Unidir_Put \(warm-up\), 4096 bytes, 2 processes: MPI_Send: `},
		{"io", func(d string) []string {
			return []string{"io", "P_Write_indv", "-npmin", "2", "-msglen", lens, "-iodir", d}
		}, `P_Write_Indv \(aggregate\), 4096 bytes, 2 processes: MPI_Send of \S+ at an unknown offset: `},
		{"beff", func(string) []string { return []string{"beff", "-mem", "1"} },
			`cart-1d-x \(sendrecv\), 1 byte, 2 processes: MPI_Send: `},
		{"beffio", func(d string) []string {
			return []string{"beffio", "-T", "1", "-mem", "16", "-disk", "128M", "-iodir", d}
		}, `p00 \(write\), 1048576 bytes, 2 processes: MPI_Send of \S+, call 1 of pattern 0, at an unknown offset: `},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(mutantEnv, "mpi-error")
			dir := t.TempDir()
			r := launchBin(t, bin, 2, c.args(dir)...)
			noPanic(t, r)
			if r.code != 1 {
				t.Errorf("want exit code 1 (MPI_Abort), got %s", r)
			}
			re := regexp.MustCompile(`(?m)^mpibench ` + c.name + `: rank 1: ` + c.want)
			if !re.MatchString(r.stderr) {
				t.Errorf("stderr does not match %q:\n%s", re, r)
			}
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("files left in %s: %v", dir, left)
			}
		})
	}
}
