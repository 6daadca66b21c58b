package tune

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"mpibench/internal/golden"
)

// The algorithms of Open MPI 4.1.4 as its ompi_info lists them, read
// from the captured output: every enumerator but 0 ("ignore").
func TestParseInfo(t *testing.T) {
	o := &OpenMPI{run: func(string, ...string) ([]byte, error) {
		return os.ReadFile("testdata/ompi_info-4.1.4.txt")
	}}
	algs, err := o.Algorithms()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Allreduce":  "1 basic_linear, 2 nonoverlapping, 3 recursive_doubling, 4 ring, 5 segmented_ring, 6 rabenseifner",
		"Bcast":      "1 basic_linear, 2 chain, 3 pipeline, 4 split_binary_tree, 5 binary_tree, 6 binomial, 7 knomial, 8 scatter_allgather, 9 scatter_allgather_ring",
		"Alltoallv":  "1 basic_linear, 2 pairwise",
		"Barrier":    "1 linear, 2 double_ring, 3 recursive_doubling, 4 bruck, 5 two_proc, 6 tree",
		"Allgatherv": "1 default, 2 bruck, 3 ring, 4 neighbor, 5 two_proc",
	}
	for coll, w := range want {
		if got := algList(algs[coll]); got != w {
			t.Errorf("%s: %s\nwant %s", coll, got, w)
		}
	}
	for _, c := range Colls {
		if len(algs[c.Name]) < 2 {
			t.Errorf("%s: %d algorithms", c.Name, len(algs[c.Name]))
		}
	}
}

func algList(as []Alg) string {
	var s []string
	for _, a := range as {
		s = append(s, fmt.Sprintf("%d %s", a.ID, a.Name))
	}
	return strings.Join(s, ", ")
}

// A library without coll/tuned, or an ompi_info that fails, is an error
// that says so.
func TestParseInfoErrors(t *testing.T) {
	o := &OpenMPI{Info: "/opt/x/ompi_info", run: func(string, ...string) ([]byte, error) {
		return []byte("mca:coll:basic:version:mca:2.1.0\n"), nil
	}}
	if _, err := o.Algorithms(); err == nil || !strings.Contains(err.Error(), "no coll/tuned") || !strings.Contains(err.Error(), "/opt/x/ompi_info") {
		t.Errorf("no tuned: %v", err)
	}
	o.run = func(string, ...string) ([]byte, error) { return nil, errors.New("exit status 1") }
	if _, err := o.Algorithms(); err == nil || !strings.Contains(err.Error(), "--param coll tuned") {
		t.Errorf("failed ompi_info: %v", err)
	}
}

// The rules file of a small decision, as Open MPI 4.1's reader takes it.
func TestWriteRules(t *testing.T) {
	ring, rd := Alg{4, "ring"}, Alg{3, "recursive_doubling"}
	tab := Table{
		"Allreduce": {{NP: 4, Alg: Default}, {NP: 4, Bytes: 4, Alg: rd}, {NP: 4, Bytes: 1024, Alg: rd},
			{NP: 4, Bytes: 65536, Alg: ring}, {NP: 4, Bytes: 65537, Alg: Default},
			{NP: 8, Bytes: 0, Alg: ring}},
		"Alltoall":  {{NP: 2, Alg: Default}, {NP: 2, Bytes: 16, Alg: Alg{2, "pairwise"}}},
		"Alltoallv": {{NP: 2, Alg: Alg{2, "pairwise"}}},
	}
	var b strings.Builder
	if err := (&OpenMPI{}).WriteRules(&b, tab); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/ompi-rules.golden", b.String())
}

// The message size each collective's rules compare, at 4 processes and
// IMB's 1024 bytes.
func TestOpenMPIMetric(t *testing.T) {
	want := map[string]int{"Allreduce": 1024, "Bcast": 1024, "Reduce": 1024, "Reduce_scatter": 1024,
		"Allgather": 4096, "Alltoall": 4096, "Gather": 4096, "Scatter": 4096, "Reduce_scatter_block": 4096,
		"Allgatherv": 1024, "Alltoallv": 0, "Barrier": 0}
	for _, c := range Colls {
		if got := (&OpenMPI{}).Metric(c, 4, 1024); got != want[c.Name] {
			t.Errorf("%s: %d, want %d", c.Name, got, want[c.Name])
		}
	}
}
