package tune

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mpibench/internal/golden"
	"mpibench/mpi"
)

// mpichVars are the algorithm variables of MPICH 4.0.2 (every
// *_INTRA_ALGORITHM), as its MPI_T hands them out: "NAME\tdescription"
// lines (TestMPICHNamesAccepted rewrites the file from the library with
// -update).
func mpichVars(t *testing.T) []mpi.ControlVar {
	t.Helper()
	b, err := os.ReadFile("testdata/mpich-4.0.2-algvars.txt")
	if err != nil {
		t.Fatal(err)
	}
	var vars []mpi.ControlVar
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		name, desc, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		vars = append(vars, mpi.ControlVar{Name: name, Desc: desc})
	}
	return vars
}

// algVarsText is the fixture's text of vars.
func algVarsText(vars []mpi.ControlVar) string {
	var b strings.Builder
	for _, v := range vars {
		if strings.HasSuffix(v.Name, "_INTRA_ALGORITHM") {
			fmt.Fprintf(&b, "%s\t%s\n", v.Name, v.Desc)
		}
	}
	return b.String()
}

// algNamesText parses every variable of vars, a line each.
func algNamesText(vars []mpi.ControlVar) (string, error) {
	vocab := descWords(vars)
	var b strings.Builder
	for _, v := range vars {
		if !strings.HasSuffix(v.Name, "_INTRA_ALGORITHM") {
			continue
		}
		names, err := algNames(v.Desc, vocab)
		if err != nil {
			return "", fmt.Errorf("%s: %v", v.Name, err)
		}
		fmt.Fprintf(&b, "%s: %s\n", v.Name, strings.Join(names, " "))
	}
	return b.String(), nil
}

// The names of every algorithm variable of MPICH 4.0.2, the
// nonblocking, neighbourhood and shared-memory ones too, told from the
// descriptions alone (their words are the vocabulary here, the library's
// every description in a run). The golden file is what MPICH accepted:
// TestMPICHNamesAccepted tries each name on the library.
func TestMPICHAlgNames(t *testing.T) {
	got, err := algNamesText(mpichVars(t))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/mpich-4.0.2-algnames.golden", got)
}

func mpichAlgList(as []Alg) string {
	var s []string
	for _, a := range as {
		s = append(s, fmt.Sprintf("%d %s", a.ID, a.Name))
	}
	return strings.Join(s, ", ")
}

// Algorithms numbers the names as MPICH does, auto 0 left out, for every
// collective tune measures.
func TestMPICHAlgorithms(t *testing.T) {
	vars := mpichVars(t)
	m := &MPICH{vars: func() ([]mpi.ControlVar, error) { return vars, nil }}
	algs, err := m.Algorithms()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Bcast":                "1 binomial, 2 nb, 3 smp, 4 scatter_recursive_doubling_allgather, 5 scatter_ring_allgather",
		"Allreduce":            "1 nb, 2 smp, 3 recursive_doubling, 4 reduce_scatter_allgather",
		"Reduce_scatter_block": "1 noncommutative, 2 recursive_doubling, 3 pairwise, 4 recursive_halving, 5 nb",
		"Barrier":              "1 nb, 2 smp, 3 dissemination",
		"Gather":               "1 binomial, 2 nb",
	}
	for coll, w := range want {
		if got := mpichAlgList(algs[coll]); got != w {
			t.Errorf("%s: %s\nwant %s", coll, got, w)
		}
	}
	for _, c := range Colls {
		if len(algs[c.Name]) < 2 {
			t.Errorf("%s: %v", c.Name, algs[c.Name])
		}
	}
}

// A library without MPICH's variables (Open MPI's), or whose MPI_T fails,
// is an error that says so; so is a description the parser cannot read.
func TestMPICHAlgorithmsErrors(t *testing.T) {
	m := &MPICH{vars: func() ([]mpi.ControlVar, error) {
		return []mpi.ControlVar{{Name: "mpi_show_mca_params", Desc: "Whether to show all MCA parameter values"}}, nil
	}}
	if _, err := m.Algorithms(); err == nil || !strings.Contains(err.Error(), "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM") {
		t.Errorf("no MPICH variables: %v", err)
	}
	m.vars = func() ([]mpi.ControlVar, error) { return nil, mpi.ErrNoMPI }
	if _, err := m.Algorithms(); err == nil || !strings.Contains(err.Error(), "control variables") {
		t.Errorf("MPI_T failing: %v", err)
	}
	for _, desc := range []string{
		"Variable to select bcast algorithm",                                       // no entries
		"Variable to select bcast algorithmauto - Internal Xqzbinomial - Force it", // no word before the name
		"Variable to select bcast algorithmbinomial - Force Binomial",              // not auto first
	} {
		m.vars = func() ([]mpi.ControlVar, error) {
			return []mpi.ControlVar{{Name: "MPIR_CVAR_BCAST_INTRA_ALGORITHM", Desc: desc}}, nil
		}
		if algs, err := m.Algorithms(); err == nil {
			t.Errorf("%q: no error, %v", desc, algs)
		}
	}
}

func TestMPICHForce(t *testing.T) {
	m := &MPICH{}
	c, _ := CollNamed("Reduce_scatter_block")
	if got := m.Force(c, Alg{ID: 3, Name: "pairwise"}); strings.Join(got, " ") != "MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=pairwise" {
		t.Errorf("forced: %v", got)
	}
	if got := m.Force(c, Default); strings.Join(got, " ") != "MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=auto" {
		t.Errorf("default: %v", got)
	}
	env := m.RulesEnv("rules.json")
	if len(env) != 1 || !strings.HasPrefix(env[0], "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=/") || !strings.HasSuffix(env[0], "/rules.json") {
		t.Errorf("rules env: %v", env)
	}
}

// Metric follows IMB 2021's calls into MPICH's sizes.
func TestMPICHMetric(t *testing.T) {
	m := &MPICH{}
	for _, c := range []struct {
		coll      string
		np, bytes int
		want      int
	}{
		{"Bcast", 4, 1024, 1024}, {"Alltoall", 4, 1024, 1024},
		{"Allreduce", 4, 1026, 1024}, {"Reduce", 4, 2, 0},
		{"Allgather", 4, 1024, 4096}, {"Allgatherv", 3, 1024, 3072}, {"Alltoallv", 4, 8, 32},
		{"Gather", 4, 1024, 4096}, {"Scatter", 2, 1, 2},
		{"Reduce_scatter", 4, 1024, 4096}, {"Reduce_scatter_block", 4, 1027, 4096},
		{"Barrier", 4, 0, 0},
	} {
		coll, _ := CollNamed(c.coll)
		if got := m.Metric(coll, c.np, c.bytes); got != c.want {
			t.Errorf("%s np %d %d bytes: %d, want %d", c.coll, c.np, c.bytes, got, c.want)
		}
	}
}

// mpichRanges merges neighbours with one algorithm, keeps the default
// below the first rule, drops a length of no size of its own and stops
// at MaxInt32.
func TestMPICHRanges(t *testing.T) {
	m := &MPICH{}
	nb, smp := Alg{ID: 2, Name: "nb"}, Alg{ID: 3, Name: "smp"}
	ar, _ := CollNamed("Allreduce")
	ag, _ := CollNamed("Allgather")
	for _, c := range []struct {
		coll  Coll
		np    int
		rules []Rule
		want  string
	}{
		{ar, 2, []Rule{{2, 0, nb}, {2, 4, nb}, {2, 64, Default}, {2, 1024, smp}, {2, 4096, smp}},
			"0 nb, 64 default, 1024 smp"},
		{ar, 2, []Rule{{2, 1024, Default}, {2, 16, nb}}, "0 default, 16 nb, 1024 default"},
		{ar, 2, []Rule{{2, 0, nb}, {2, 1, smp}, {2, 2, Default}, {2, 4, nb}}, "0 default, 4 nb"},
		{ag, 4, []Rule{{4, 0, nb}, {4, 1 << 29, smp}, {4, 1 << 30, Default}}, "0 nb, 2147483647 default"},
	} {
		var got []string
		for _, r := range m.mpichRanges(c.coll, c.np, c.rules) {
			got = append(got, fmt.Sprintf("%d %s", r.From, r.Alg.Name))
		}
		if g := strings.Join(got, ", "); g != c.want {
			t.Errorf("%v: %s, want %s", c.rules, g, c.want)
		}
	}
}

// fakeLibrary writes a stand-in for libmpich.so: the CH4 device's
// selection, MPICH 4.0.2's own (MPII_coll_generic_json) and the
// containers of every algorithm of the fixture, NUL-terminated strings
// among others.
func fakeLibrary(t *testing.T, def []byte) string {
	t.Helper()
	algs, err := mpichAlgorithms(mpichVars(t))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString("\x7fELF\x02\x01\x01\x00other strings\x00")
	b.WriteString(`{"collective=bcast":{"comm_type=intra":{"composition=MPIDI_Bcast_intra_composition_alpha":{}}}}` + "\x00")
	b.WriteString(`{"collective=bcast": {` + "\x00") // cut short: not a selection
	b.Write(bytes.TrimSpace(def))
	b.WriteByte(0)
	for _, c := range Colls {
		for _, a := range algs[c.Name] {
			b.WriteString("algorithm=" + mpichContainer(c, a) + "\x00")
		}
	}
	path := filepath.Join(t.TempDir(), "libmpich.so.12")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mpichDefault(t *testing.T) []byte {
	t.Helper()
	def, err := os.ReadFile("testdata/mpich-4.0.2-default.json")
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// The library's own selection is found among its strings, the device's
// left aside; none, or two that differ, is an error naming the library.
func TestMPICHDefaultSelection(t *testing.T) {
	def := mpichDefault(t)
	lib, err := os.ReadFile(fakeLibrary(t, def))
	if err != nil {
		t.Fatal(err)
	}
	sel, err := mpichDefaultSelection(lib, "lib")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := parseSelection(def)
	if fmt.Sprint(sel) != fmt.Sprint(want) || len(sel) != 44 {
		t.Errorf("found %d collectives", len(sel))
	}
	for _, bad := range [][]byte{lib[:bytes.Index(lib, []byte(`{"collective=bcast":{"comm_type=intra":{"comm_size<8"`))],
		append(append(lib, `{"collective=barrier":{"algorithm=MPIR_Barrier_intra_smp":{}}}`...), 0)} {
		if _, err := mpichDefaultSelection(bad, "/x/libmpich.so"); err == nil || !strings.Contains(err.Error(), "/x/libmpich.so") {
			t.Errorf("want an error naming the library, got %v", err)
		}
	}
}

// The file of a small selection, to be read by hand: Bcast at 2 and 4
// processes, nb below 2 KiB at 2, smp (guarded by a node hierarchy) from
// 1 KiB at 4; Alltoall's in-place branch and the intercommunicators keep
// their algorithm; Barrier is a whole.
func TestMPICHWriteRulesGolden(t *testing.T) {
	def := []byte(`{"collective=bcast":{"comm_type=intra":{"comm_size<8":{"avg_msg_size<=12288":{"algorithm=MPIR_Bcast_intra_binomial":{}},` +
		`"avg_msg_size=any":{"algorithm=MPIR_Bcast_intra_scatter_ring_allgather":{}}},"comm_size=any":{"algorithm=MPIR_Bcast_intra_binomial":{}}},` +
		`"comm_type=inter":{"algorithm=MPIR_Bcast_inter_remote_send_local_bcast":{}}},` +
		`"collective=alltoall":{"comm_type=intra":{"is_sendbuf_inplace=yes":{"algorithm=MPIR_Alltoall_intra_pairwise_sendrecv_replace":{}},` +
		`"is_sendbuf_inplace=no":{"algorithm=MPIR_Alltoall_intra_scattered":{}}}},` +
		`"collective=barrier":{"comm_type=intra":{"algorithm=MPIR_Barrier_intra_dissemination":{}}},` +
		`"collective=gather":{"comm_type=intra":{"algorithm=MPIR_Gather_intra_binomial":{}}}}`)
	m := &MPICH{Library: fakeLibrary(t, def)}
	nb, smp := Alg{ID: 2, Name: "nb"}, Alg{ID: 3, Name: "smp"}
	table := Table{
		"Bcast":    {{2, 0, nb}, {2, 1024, nb}, {2, 2048, Default}, {4, 0, Default}, {4, 1024, smp}},
		"Alltoall": {{2, 0, Alg{ID: 1, Name: "brucks"}}},
		"Barrier":  {{2, 0, Alg{ID: 1, Name: "nb"}}},
		"Gather":   {{2, 0, Default}, {2, 64, Default}},
	}
	var b strings.Builder
	if err := m.WriteRules(&b, table); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/mpich-rules.golden", b.String())
}

// WriteRules refuses a table of an unknown collective, an algorithm the
// library has no container for, a library without its own selection, and
// returns the writer's error.
func TestMPICHWriteRulesErrors(t *testing.T) {
	def := mpichDefault(t)
	m := &MPICH{Library: fakeLibrary(t, def)}
	for _, c := range []struct {
		table Table
		want  string
	}{
		{Table{"Bcast_init": {{2, 0, Alg{ID: 1, Name: "binomial"}}}}, "Bcast_init"},
		{Table{"Bcast": {{2, 0, Alg{ID: 9, Name: "bogus"}}}}, "algorithm=MPIR_Bcast_intra_bogus"},
	} {
		if err := m.WriteRules(&strings.Builder{}, c.table); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: want an error with %q, got %v", c.table, c.want, err)
		}
	}
	table := Table{"Bcast": {{2, 0, Alg{ID: 2, Name: "nb"}}}}
	if err := m.WriteRules(golden.Full{}, table); err != golden.ErrFull {
		t.Errorf("full disk: %v", err)
	}
	bare := filepath.Join(t.TempDir(), "libmpi.so.40")
	if err := os.WriteFile(bare, []byte("no selection\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	m.Library = bare
	if err := m.WriteRules(&strings.Builder{}, table); err == nil || !strings.Contains(err.Error(), bare) {
		t.Errorf("no selection: %v", err)
	}
}
