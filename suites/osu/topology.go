package osu

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// OSU 7.4's neighbourhood topologies (osu_util.c: omb_nhbrhd_process_options;
// osu_util_mpi.c: omb_neighborhood_create).
const (
	defaultCartDim = 1   // options.nhbrhd_type_parameters.dim
	defaultCartRad = 1   // options.nhbrhd_type_parameters.rad
	maxGraphEdges  = 500 // OMB_NHBRHD_ADJ_EDGES_MAX_NUM: edges into or out of one rank
)

// Topology is -N: the neighbourhood tests' topology, cart:DIM:RAD (OSU's
// default cart:1:1) or graph:FILE (an adjacency list, "SRC,DST" per line,
// read on rank 0 when the options are parsed and shared as Edges).
type Topology struct {
	Kind  string   `json:"kind"` // cart, graph
	Dim   int      `json:"dim,omitempty"`
	Rad   int      `json:"rad,omitempty"`
	File  string   `json:"file,omitempty"`
	Edges [][2]int `json:"edges,omitempty"`
}

// String is -N as OSU spells it.
func (t *Topology) String() string {
	if t.Kind == "graph" {
		return "graph:" + t.File
	}
	return fmt.Sprintf("cart:%d:%d", t.Dim, t.Rad)
}

// setTopology is -N cart:DIM:RAD | graph:FILE. OSU splits the value with
// strtok at ':' (empty fields vanish) and matches the kind as a
// case-insensitive prefix; where it reads DIM and RAD with atoi, mpibench
// wants integers, DIM at least 1 and RAD at least 0.
func (o *Options) setTopology(v string) error {
	var f []string
	for _, p := range strings.Split(v, ":") {
		if p != "" {
			f = append(f, p)
		}
	}
	kind := ""
	if len(f) > 0 {
		kind = strings.ToLower(f[0])
	}
	switch {
	case strings.HasPrefix(kind, "cart"):
		if len(f) < 3 {
			return fmt.Errorf("please pass -Ncart:<dim:rad> (OSU 7.4)")
		}
		d, err1 := strconv.Atoi(strings.TrimSpace(f[1]))
		r, err2 := strconv.Atoi(strings.TrimSpace(f[2]))
		if err1 != nil || err2 != nil || d < 1 || r < 0 {
			return fmt.Errorf("want cart:DIM:RAD with DIM >= 1 and RAD >= 0")
		}
		o.Topology = &Topology{Kind: "cart", Dim: d, Rad: r}
	case strings.HasPrefix(kind, "graph"):
		if len(f) < 2 {
			// OSU 7.4 takes it and fails opening "" at run time.
			return fmt.Errorf("want graph:FILE (the adjacency list)")
		}
		t := &Topology{Kind: "graph", File: f[1]}
		if err := t.readGraph(); err != nil {
			return err
		}
		o.Topology = t
	default:
		return fmt.Errorf("invalid topology type; valid topology types: cart, graph")
	}
	return nil
}

// readGraph reads the adjacency list as omb_neighborhood_create does: a
// line starting with '#' is a comment; any other holds SRC and DST, the
// first two of its comma-separated fields (strtok: empty fields vanish,
// further ones are ignored). Where OSU reads them with atoi, mpibench
// wants non-negative integers; a line without two fields (an empty line
// too) is refused, as OSU refuses it ("Unable to recognise the pattern").
func (t *Topology) readGraph() error {
	f, err := os.Open(t.File)
	if err != nil {
		return fmt.Errorf("unable to open graph adjacency list file: %v", err)
	}
	defer func() { _ = f.Close() }() // read-only
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		var fields []string
		for _, p := range strings.Split(line, ",") {
			if p != "" {
				fields = append(fields, p)
			}
		}
		if len(fields) < 2 {
			return fmt.Errorf("%s:%d: unable to recognise the pattern (want SRC,DST)", t.File, n)
		}
		var e [2]int
		for i := range e {
			if e[i], err = strconv.Atoi(strings.TrimSpace(fields[i])); err != nil || e[i] < 0 {
				return fmt.Errorf("%s:%d: %q: want a rank (a non-negative integer)", t.File, n, fields[i])
			}
		}
		t.Edges = append(t.Edges, e)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", t.File, err)
	}
	return nil
}

// neighbours are every rank's sources and destinations, in the order the
// topology defines them (omb_neighborhood_create).
type neighbours struct {
	srcs, dsts [][]int
}

// graphNeighbours are the graph's: rank p's destinations are the DSTs of
// the lines whose SRC is p, its sources the SRCs of the lines whose DST is
// p, in the file's order. An edge of a rank with a node at or above np is
// refused, as OSU refuses it on that rank; other edges are ignored.
func (t *Topology) graphNeighbours(np int) (*neighbours, error) {
	n := &neighbours{srcs: make([][]int, np), dsts: make([][]int, np)}
	for _, e := range t.Edges {
		if e[0] >= np && e[1] >= np {
			continue
		}
		if e[0] >= np || e[1] >= np {
			return nil, fmt.Errorf("-N %s: edge %d,%d: number of processes (%d) is less than graph nodes; "+
				"please increase number of processes", t, e[0], e[1], np)
		}
		n.dsts[e[0]] = append(n.dsts[e[0]], e[1])
		n.srcs[e[1]] = append(n.srcs[e[1]], e[0])
	}
	for p := range np {
		if len(n.srcs[p]) > maxGraphEdges || len(n.dsts[p]) > maxGraphEdges {
			return nil, fmt.Errorf("-N %s: rank %d has more than %d edges (OMB_NHBRHD_ADJ_EDGES_MAX_NUM)", t, p,
				maxGraphEdges)
		}
	}
	return n, nil
}

// cartRadius is OSU's check of the radius against the dimensions: at most
// half of the smallest dimension less one, so that no neighbour comes
// twice (its message, with its missing space, on rank 0's stderr).
func cartRadius(dims []int, r, np int) error {
	m := np
	for _, d := range dims {
		m = min(m, d)
	}
	if r > (m-1)/2 {
		return fmt.Errorf("ERROR: the given neighborhood radius (r = %d)is greater than the half of the minimum "+
			"dimension size %d. Increase the number of processes or reduce dim and rad. Aborting!", r, m)
	}
	return nil
}

// cartNeighbours are the periodic cartesian topology's with radius r:
// every offset vector in [-r, r]^d, the last dimension turning fastest,
// added to the rank's coordinates (row-major, as MPI_Cart_create without
// reordering numbers them), wrapped, the rank itself left out; sources
// and destinations are the same list.
func cartNeighbours(dims []int, r, np int) *neighbours {
	n := &neighbours{srcs: make([][]int, np), dsts: make([][]int, np)}
	d := len(dims)
	for p := range np {
		coords := make([]int, d)
		for i, q := d-1, p; i >= 0; i-- {
			coords[i], q = q%dims[i], q/dims[i]
		}
		off := make([]int, d)
		for i := range off {
			off[i] = -r
		}
		for {
			q := 0
			for i := range d {
				q = q*dims[i] + ((coords[i]+off[i])%dims[i]+dims[i])%dims[i]
			}
			if q != p {
				n.dsts[p] = append(n.dsts[p], q)
				n.srcs[p] = append(n.srcs[p], q)
			}
			i := d - 1
			for ; i >= 0 && off[i] == r; i-- {
				off[i] = -r
			}
			if i < 0 {
				break
			}
			off[i]++
		}
	}
	return n
}

// blocks are, for each source of rank me, the index of me among that
// source's destinations: the block of its send buffer that comes to me.
// The k-th time a source appears among me's sources matches the k-th time
// me appears among its destinations (MPI's order of repeated edges).
func (n *neighbours) blocks(me int) []int {
	out := make([]int, len(n.srcs[me]))
	seen := map[int]int{}
	for l, s := range n.srcs[me] {
		k := seen[s]
		seen[s]++
		out[l] = -1
		for j, d := range n.dsts[s] {
			if d != me {
				continue
			}
			if k == 0 {
				out[l] = j
				break
			}
			k--
		}
	}
	return out
}
