//go:build cgo && !nompi

package mpi

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestControlVars lists the control variables of either library in a
// test process that never called MPI_Init and no launcher started.
func TestControlVars(t *testing.T) {
	vars, err := ControlVars()
	if err != nil {
		t.Fatal(err)
	}
	if len(vars) == 0 {
		t.Fatal("no control variables")
	}
	for _, v := range vars {
		if v.Name == "" || strings.ContainsRune(v.Name+v.Desc, 0) {
			t.Fatalf("bad variable %q: %q", v.Name, v.Desc)
		}
	}
	if Flavor == "mpich" && !hasVar(vars, "MPIR_CVAR_BCAST_INTRA_ALGORITHM") {
		t.Errorf("MPICH without MPIR_CVAR_BCAST_INTRA_ALGORITHM among %d variables", len(vars))
	}
	if _, err := ControlVars(); err != nil { // a second caller: MPI_T stays initialised
		t.Fatalf("second listing: %v", err)
	}
}

func hasVar(vars []ControlVar, name string) bool {
	for _, v := range vars {
		if v.Name == name {
			return true
		}
	}
	return false
}

// cvarChildEnv makes the test binary a child that prints one variable.
const cvarChildEnv = "MPIBENCH_TEST_CVAR"

// TestControlVarInt reads MPICH's bcast algorithm as the environment sets
// it, each value in a child process (MPICH reads the environment once per
// process): auto is 0, a known name its index, an unknown name refused by
// MPI_T_init_thread.
func TestControlVarInt(t *testing.T) {
	if name := os.Getenv(cvarChildEnv); name != "" {
		v, err := ControlVarInt(name)
		if err != nil {
			t.Fatalf("child: %v", err)
		}
		t.Logf("value=%d", v)
		return
	}
	if Flavor != "mpich" {
		t.Skip("MPICH's algorithm variables")
	}
	const name = "MPIR_CVAR_BCAST_INTRA_ALGORITHM"
	for _, c := range []struct {
		value, want string
	}{{"auto", "value=0"}, {"binomial", "value=1"}, {"bogus", "MPI_T_init_thread"}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestControlVarInt$", "-test.v")
		cmd.Env = append(os.Environ(), cvarChildEnv+"="+name, name+"="+c.value)
		got, _ := cmd.CombinedOutput()
		if !strings.Contains(string(got), c.want) {
			t.Errorf("%s=%s: want %q in\n%s", name, c.value, c.want, got)
		}
	}
}

// TestLibraryFile finds the shared object of the library.
func TestLibraryFile(t *testing.T) {
	p, err := LibraryFile()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"mpich": "libmpich", "openmpi": "libmpi"}[Flavor]
	if !strings.HasPrefix(filepath.Base(p), want) {
		t.Errorf("library file %s, want %s*", p, want)
	}
	if _, err := os.Stat(p); err != nil {
		t.Error(err)
	}
}
