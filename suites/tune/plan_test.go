package tune

import (
	"strings"
	"testing"
)

// Bad command lines: each refused with a message naming the problem,
// before the library is asked anything.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{"", "no launcher after --"},
		{"-- mpirun -np 4", "does not name the process count"},
		{"-launches 3 -- mpirun -np {np}", "needs 4 launches"},
		{"-launches 4 -alpha 0.01 -- mpirun -np {np}", "needs 5 launches"},
		{"-alpha 2 -- mpirun -np {np}", "-alpha 2"},
		{"-np 1,2 -- mpirun -np {np}", "-np 1"},
		{"-colls Bcast,Scan -- mpirun -np {np}", `unknown collective "Scan"`},
		{"-sizes 4,-1 -- mpirun -np {np}", "want sizes in bytes"},
		{"-ppn -2 -- mpirun -np {np}", "-ppn -2"},
		{"-iter 0 -- mpirun -np {np}", `-iter "0"`},
		{"-iter 10,x -- mpirun -np {np}", `-iter "10,x"`},
		{"-time -1 -- mpirun -np {np}", `-time "-1"`},
		{"-time soon -- mpirun -np {np}", `-time "soon"`},
	} {
		_, err := parse(strings.Fields(c.args))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
	o, err := parse(strings.Fields("-colls bcast,Allreduce -np 4,2 -sizes 8,4,8 -- srun -n {np}"))
	if err != nil || len(o.plan.Colls) != 2 || o.plan.NPs[0] != 2 || len(o.plan.Sizes) != 2 || o.plan.Sizes[0] != 4 {
		t.Errorf("%+v %v", o, err)
	}
}

// -algs narrows the algorithms by number or name; one the library lacks
// is an error that lists those it has.
func TestSelectAlgs(t *testing.T) {
	found := map[string][]Alg{"Bcast": {{1, "basic_linear"}, {2, "chain"}}, "Barrier": {{1, "linear"}}}
	got, err := selectAlgs(found, "bcast=2; Barrier=linear")
	if err != nil || len(got["Bcast"]) != 1 || got["Bcast"][0].Name != "chain" || got["Barrier"][0].ID != 1 {
		t.Errorf("%v %v", got, err)
	}
	_, err = selectAlgs(found, "Bcast=1,9")
	if err == nil || !strings.Contains(err.Error(), `no algorithm "9"`) || !strings.Contains(err.Error(), "1 basic_linear, 2 chain") {
		t.Errorf("%v", err)
	}
	if _, err = selectAlgs(found, "Bcast"); err == nil || !strings.Contains(err.Error(), "COLL=ALG") {
		t.Errorf("%v", err)
	}
}

// A grid whose largest point cannot fit on a node is refused, naming it.
func TestCheckMemory(t *testing.T) {
	p := Plan{Colls: []Coll{Colls[1], Colls[5]}, NPs: []int{2, 64}, Sizes: []int{4, 1 << 30}, PPN: 64}
	err := checkMemory(p, 100<<30)
	if err == nil || !strings.Contains(err.Error(), "Bcast at 64 processes and 1073741824 bytes needs 131072 MiB on a node (64 processes of 2048 MiB each), and 102400 MiB") {
		t.Errorf("%v", err)
	}
	p.Sizes = []int{4, 1 << 20}
	if err := checkMemory(p, 100<<30); err != nil {
		t.Error(err)
	}
}
