package tune

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"mpibench/internal/golden"
	"mpibench/mpi"
)

// The tests against the MPICH this test binary is built with (-tags
// mpich); other builds skip them.

// mpichChildEnv makes the test binary a child that prints the values of
// the variables it lists (comma-separated) as MPICH read them from its
// environment, one "cvar NAME=VALUE" line each.
const mpichChildEnv = "MPIBENCH_TEST_MPICH_CVARS"

func needMPICH(t *testing.T) {
	t.Helper()
	if mpi.Flavor != "mpich" {
		t.Skipf("the library is %s: these tests ask MPICH itself (go test -tags mpich)", mpi.Flavor)
	}
}

// Every name the parser tells from this MPICH's descriptions (all its
// *_INTRA_ALGORITHM variables) is one MPICH accepts, and its index in
// the description is the value MPI_T reads back: each round sets every
// variable to its next name in a child process (MPICH reads the
// environment once per process and refuses an unknown value at
// MPI_T_init_thread). Under MPICH 4.0.2 the captured descriptions and
// default selection of testdata are this library's (-update rewrites the
// descriptions).
func TestMPICHNamesAccepted(t *testing.T) {
	if list := os.Getenv(mpichChildEnv); list != "" {
		printCvars(strings.Split(list, ","))
		return
	}
	needMPICH(t)
	vars, err := mpi.ControlVars()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(mpi.LibraryVersion(), "4.0.2") {
		golden.Check(t, "testdata/mpich-4.0.2-algvars.txt", algVarsText(vars))
		checkLiveDefault(t)
	}
	names := map[string][]string{}
	vocab := descWords(vars)
	for _, v := range vars {
		if strings.HasSuffix(v.Name, "_INTRA_ALGORITHM") {
			if names[v.Name], err = algNames(v.Desc, vocab); err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
		}
	}
	tried := 0
	for k := 0; ; k++ {
		env := map[string]string{}
		for v, ns := range names {
			if k < len(ns) {
				env[v] = ns[k]
			}
		}
		if len(env) == 0 {
			break
		}
		tried += len(env)
		checkRound(t, env, k)
	}
	t.Logf("%d names of %d variables accepted", tried, len(names))
}

// printCvars is the child: each variable's value, or MPI_T's refusal.
func printCvars(names []string) {
	for _, n := range names {
		v, err := mpi.ControlVarInt(n)
		if err != nil {
			fmt.Printf("cvar %s error %v\n", n, err)
			continue
		}
		fmt.Printf("cvar %s=%d\n", n, v)
	}
}

// checkRound runs a child with the variables of env set and wants each to
// read back as want; a refusal is tried again one variable at a time to
// name the culprit.
func checkRound(t *testing.T, env map[string]string, want int) {
	t.Helper()
	got, err := childCvars(env)
	if err == nil {
		for v, name := range env {
			if got[v] != strconv.Itoa(want) {
				t.Errorf("%s=%s reads back as %q, want %d", v, name, got[v], want)
			}
		}
		return
	}
	for v, name := range env {
		if _, err := childCvars(map[string]string{v: name}); err != nil {
			t.Errorf("MPICH refuses %s=%s: %v", v, name, err)
		}
	}
}

// childCvars runs the child with the variables set (and no other of
// MPICH's) and returns the values it read.
func childCvars(env map[string]string) (map[string]string, error) {
	var list []string
	cmd := exec.Command(os.Args[0], "-test.run=^TestMPICHNamesAccepted$")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MPIR_CVAR_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for v, name := range env {
		cmd.Env = append(cmd.Env, v+"="+name)
		list = append(list, v)
	}
	cmd.Env = append(cmd.Env, mpichChildEnv+"="+strings.Join(list, ","))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, out)
	}
	got := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "cvar "); ok {
			if strings.Contains(line, " error ") {
				return nil, fmt.Errorf("%s", line)
			}
			k, v, _ := strings.Cut(line, "=")
			got[k] = v
		}
	}
	return got, nil
}

// checkLiveDefault: MPICH 4.0.2's own selection, found in the library
// this process runs with, is testdata's.
func checkLiveDefault(t *testing.T) {
	t.Helper()
	m := &MPICH{}
	lib, name, err := m.library()
	if err != nil {
		t.Fatal(err)
	}
	sel, err := mpichDefaultSelection(lib, name)
	if err != nil {
		t.Fatal(err)
	}
	want, err := parseSelection(mpichDefault(t))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sel) != fmt.Sprint(want) {
		t.Errorf("%s's own selection is not testdata/mpich-4.0.2-default.json", name)
	}
}

// Algorithms and WriteRules on this MPICH: every collective tune measures
// has algorithms, and a table naming each of them writes.
func TestMPICHLive(t *testing.T) {
	needMPICH(t)
	m := &MPICH{}
	algs, err := m.Algorithms()
	if err != nil {
		t.Fatal(err)
	}
	table := Table{}
	for _, c := range Colls {
		if len(algs[c.Name]) == 0 {
			t.Errorf("%s: no algorithms", c.Name)
		}
		for i, a := range algs[c.Name] {
			table[c.Name] = append(table[c.Name], Rule{NP: 2, Bytes: 1 << (2 * i), Alg: a})
		}
	}
	var b strings.Builder
	if err := m.WriteRules(&b, table); err != nil {
		t.Fatal(err)
	}
	if _, err := parseSelection([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
}
