package osu

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/mpi"
)

// TestCartNeighbours: omb_neighborhood_create's cartesian neighbours,
// offsets in [-r, r]^d with the last dimension fastest, wrapped, the rank
// left out; worked by hand from the rank's row-major coordinates.
func TestCartNeighbours(t *testing.T) {
	for _, c := range []struct {
		dims     []int
		r, np    int
		rank     int
		want     []int
		degreeOK int
	}{
		{[]int{3}, 1, 3, 0, []int{2, 1}, 2},
		{[]int{5}, 2, 5, 1, []int{4, 0, 2, 3}, 4},
		{[]int{3, 3}, 1, 9, 0, []int{8, 6, 7, 2, 1, 5, 3, 4}, 8},
		{[]int{3, 3}, 1, 9, 4, []int{0, 1, 2, 3, 5, 6, 7, 8}, 8},
		{[]int{4}, 0, 4, 2, nil, 0},
	} {
		n := cartNeighbours(c.dims, c.r, c.np)
		if !slices.Equal(n.dsts[c.rank], c.want) || !slices.Equal(n.srcs[c.rank], c.want) {
			t.Errorf("dims %v r %d rank %d: sources %v destinations %v, want %v", c.dims, c.r, c.rank, n.srcs[c.rank],
				n.dsts[c.rank], c.want)
		}
		for p := range c.np {
			if len(n.dsts[p]) != c.degreeOK {
				t.Errorf("dims %v r %d rank %d: degree %d, want (2r+1)^d-1 = %d", c.dims, c.r, p, len(n.dsts[p]),
					c.degreeOK)
			}
			// Every source's block for p is the one that names p.
			for l, b := range n.blocks(p) {
				if s := n.srcs[p][l]; b < 0 || n.dsts[s][b] != p {
					t.Errorf("dims %v rank %d: source %d block %d does not go to it", c.dims, p, s, b)
				}
			}
		}
	}
}

// TestCartRadius: OSU's limit r <= (min dim - 1) / 2, with its message.
func TestCartRadius(t *testing.T) {
	if err := cartRadius([]int{2}, 1, 2); err == nil || !strings.Contains(err.Error(),
		"(r = 1)is greater than the half of the minimum dimension size 2.") {
		t.Errorf("2 ranks, r 1: %v", err)
	}
	if err := cartRadius([]int{3}, 1, 3); err != nil {
		t.Errorf("3 ranks, r 1: %v", err)
	}
	if err := cartRadius([]int{5, 4}, 2, 20); err == nil {
		t.Error("dims 5x4, r 2: accepted")
	}
}

// TestGraphNeighbours: the adjacency list's order, repeated edges matched
// in order (the k-th time a source appears among a rank's sources is the
// k-th time the rank appears among its destinations), edges of nodes
// beyond the processes refused where they touch a rank.
func TestGraphNeighbours(t *testing.T) {
	g := &Topology{Kind: "graph", File: "g", Edges: [][2]int{{0, 1}, {1, 2}, {2, 0}, {0, 2}, {0, 2}, {3, 0}, {0, 3},
		{7, 8}}}
	n, err := g.graphNeighbours(4)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(n.dsts[0], []int{1, 2, 2, 3}) || !slices.Equal(n.srcs[2], []int{1, 0, 0}) ||
		!slices.Equal(n.srcs[0], []int{2, 3}) {
		t.Errorf("destinations of 0 %v, sources of 2 %v, of 0 %v", n.dsts[0], n.srcs[2], n.srcs[0])
	}
	if b := n.blocks(2); !slices.Equal(b, []int{0, 1, 2}) {
		t.Errorf("blocks of rank 2: %v, want [0 1 2]", b)
	}
	if _, err := g.graphNeighbours(3); err == nil {
		t.Error("edge 3,0 at 3 processes: accepted")
	}
}

// TestTopologyOption: -N as OSU's omb_nhbrhd_process_options reads it,
// the default cart:1:1, the file read, and the tests without -N.
func TestTopologyOption(t *testing.T) {
	file := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(file, []byte("# a ring\n0,1\n1, 0 ,9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("0,1\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string // "" refused
	}{
		{[]string{"osu_neighbor_allgather"}, "cart:1:1"},
		{[]string{"osu_ineighbor_alltoallw", "-N", "cart:2:1"}, "cart:2:1"},
		{[]string{"neighbor_alltoall", "-NCART::3:0"}, "cart:3:0"},
		{[]string{"osu_neighbor_alltoallv", "--nhbr=graph:" + file}, "graph:" + file},
		{[]string{"osu_neighbor_alltoallv", "-N", "graph"}, ""},
		{[]string{"osu_neighbor_alltoallv", "-N", "graph:" + bad}, ""},
		{[]string{"osu_neighbor_alltoallv", "-N", "cart:2"}, ""},
		{[]string{"osu_neighbor_alltoallv", "-N", "cart:0:1"}, ""},
		{[]string{"osu_neighbor_alltoallv", "-N", "torus:1:1"}, ""},
		{[]string{"osu_neighbor_alltoallv", "-l"}, ""}, // no -l in NHBR's getopt string
		{[]string{"osu_alltoallw", "-N", "cart:1:1"}, ""},
		{[]string{"osu_ialltoallw", "-l", "-t", "2"}, "-"},
	} {
		o, err := Parse(c.args)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%q: accepted", c.args)
		case c.want == "" || (c.want == "-" && err == nil && o.Topology == nil):
		case err != nil:
			t.Errorf("%q: %v", c.args, err)
		case o.Topology == nil || o.Topology.String() != c.want:
			t.Errorf("%q: topology %v, want %s", c.args, o.Topology, c.want)
		}
	}
	o, _ := Parse([]string{"osu_neighbor_alltoallv", "-N", "graph:" + file})
	if o == nil || !slices.Equal(o.Topology.Edges, [][2]int{{0, 1}, {1, 0}}) {
		t.Errorf("edges: %v", o)
	}
}

// TestCollDisplsW: the w kinds' displacements are bytes (osu_alltoallw.c:
// disp * mpi_type_size), the others' elements.
func TestCollDisplsW(t *testing.T) {
	for _, c := range []struct {
		kind mpi.OSUCollKind
		want []int32
	}{
		{mpi.OSUAlltoallw, []int32{0, 12, 24}},
		{mpi.OSUNeighborAlltoallw, []int32{0, 12, 24}},
		{mpi.OSUAlltoallv, []int32{0, 3, 6}},
		{mpi.OSUNeighborAlltoallv, []int32{0, 3, 6}},
	} {
		_, d := collCounts(c.kind, 3, 3, 3)
		collDispls(c.kind, d, 4)
		if !slices.Equal(d, c.want) {
			t.Errorf("kind %d: displs %v, want %v", c.kind, d, c.want)
		}
	}
}
