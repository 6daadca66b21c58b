package beff

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// None marks a step without a send or without a receive (MPI_PROC_NULL).
const None = -1

// Step is one send-receive pair of one process: it sends L bytes to To and
// receives L bytes from From (either may be None). The steps of a process
// run in order with MPI_Sendrecv, all at once with Irecv+Isend+Waitall, or
// in one MPI_Alltoallv. The step index is the message tag.
type Step struct{ To, From int }

// Groups of patterns: the two averaged into b_eff, and the analysis ones.
const (
	Cartesian = "cartesian"
	Ring      = "ring"
	Random    = "random"
	Analysis  = "analysis"
)

// Methods of communication.
const (
	Sendrecv    = "sendrecv"
	Alltoallv   = "alltoallv"
	Nonblocking = "nonblocking"
)

// AllMethods are the three methods of b_eff, in the original's order.
var AllMethods = []string{Sendrecv, Alltoallv, Nonblocking}

// Pattern is one communication pattern on P processes.
type Pattern struct {
	Name    string
	Group   string
	Layout  string   // e.g. "2x2" or "2 rings: 2,3"
	Steps   [][]Step // per rank of MPI_COMM_WORLD
	Methods []string
}

// Messages is the total number of messages of one execution of the
// pattern, the factor of b(pat,L,mthd,rep).
func (p *Pattern) Messages() int {
	n := 0
	for _, st := range p.Steps {
		for _, s := range st {
			if s.To != None {
				n++
			}
		}
	}
	return n
}

// MaxSteps is the largest number of steps of a process.
func (p *Pattern) MaxSteps() int {
	n := 0
	for _, st := range p.Steps {
		n = max(n, len(st))
	}
	return n
}

// ring adds to steps the ring through the world ranks of order: each
// process sends to its right neighbour and receives from its left one,
// then sends back to the left and receives from the right (the paper's
// "ping" and "pong"), two messages per process in every ring, also in a
// ring of two, where both go to the same process: the paper (section 3)
// defines the two messages and says that "if a ring has more than 2
// processes" Sendrecv sends them one after the other and "in all other
// cases, the two messages may be sent in parallel". b_eff.c 3.6 instead
// removes such a pong ("Removing pong" in main) and its message from the
// count, because one MPI_Alltoallv moves only one block between two
// processes; here that one block carries both messages (BeffPattern.SetLen).
func ring(steps [][]Step, order []int) {
	n := len(order)
	if n < 2 {
		return
	}
	for i, r := range order {
		next, prev := order[(i+1)%n], order[(i+n-1)%n]
		steps[r] = append(steps[r], Step{next, prev}, Step{prev, next})
	}
}

func newSteps(p int) [][]Step {
	s := make([][]Step, p)
	for i := range s {
		s[i] = []Step{}
	}
	return s
}

func seq(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}

// DimsCreate is MPI_Dims_create(n, nd) with all dimensions free: the most
// balanced factorisation of n into nd factors, in non-increasing order.
// Prime factors, largest first, go to the currently smallest dimension.
func DimsCreate(n, nd int) []int {
	dims := make([]int, nd)
	for i := range dims {
		dims[i] = 1
	}
	var primes []int
	for m, f := n, 2; m > 1; {
		if f*f > m {
			primes = append(primes, m)
			break
		}
		if m%f == 0 {
			primes = append(primes, f)
			m /= f
		} else {
			f++
		}
	}
	for i := len(primes) - 1; i >= 0; i-- {
		small := nd - 1
		for j := nd - 1; j >= 0; j-- {
			if dims[j] < dims[small] {
				small = j
			}
		}
		dims[small] *= primes[i]
	}
	// non-increasing, as MPI returns them
	for i := 1; i < nd; i++ {
		for j := i; j > 0 && dims[j] > dims[j-1]; j-- {
			dims[j], dims[j-1] = dims[j-1], dims[j]
		}
	}
	return dims
}

// CartSize is the number of processes of the nd-dimensional topology on p
// processes, by the rules of the version 3.1 page: "If the number of nodes
// is larger than 8 then the size of each topology is reduced until each
// dimension is larger than 1. If the number of nodes is larger than 4 then
// the size for the 2- and 3-dimensional topology is reduced to the next
// even number." Read together: for p > 4 the size is even, and for p > 8
// it is the largest even size whose MPI_Dims_create has no dimension 1.
// (b_eff 3.6 stops at the first size with all dimensions > 1 even when it
// is odd, e.g. 3x3 on 9; the 3.1 page asks for an even size, 4x2.)
func CartSize(p, nd int) int {
	n := p
	for n > 1 {
		ok := p <= 4 || n%2 == 0
		if ok && p > 8 {
			d := DimsCreate(n, nd)
			ok = d[nd-1] > 1
		}
		if ok {
			return n
		}
		n--
	}
	return n
}

// cart builds the pattern of the directions dirs (0 = x, 1 = y, 2 = z) of
// the cyclic topology dims on the first prod(dims) ranks, numbered row-major
// as MPI_Cart_create without reordering does. Ranks beyond it do not take
// part. Directions of length 1 are left out. Each direction is a ring, so
// it has its ping and its pong also when its length is 2 (see ring).
func cart(p int, dims []int, dirs []int) [][]Step {
	steps := newSteps(p)
	n := 1
	for _, d := range dims {
		n *= d
	}
	coords := make([]int, len(dims))
	for r := 0; r < n; r++ {
		c := r
		for i := len(dims) - 1; i >= 0; i-- {
			coords[i] = c % dims[i]
			c /= dims[i]
		}
		for _, d := range dirs {
			if dims[d] < 2 {
				continue
			}
			dest := shift(coords, dims, d, 1)
			src := shift(coords, dims, d, -1)
			steps[r] = append(steps[r], Step{dest, src}, Step{src, dest})
		}
	}
	return steps
}

func shift(coords, dims []int, d, by int) int {
	r := 0
	for i := range dims {
		c := coords[i]
		if i == d {
			c = (c + by + dims[i]) % dims[i]
		}
		r = r*dims[i] + c
	}
	return r
}

// CartesianPatterns are the patterns of the version 3.1 page: 1-D x;
// 2-D x, y, x+y; 3-D x, y, z, x+y+z, leaving out directions of length 1
// and patterns left without any direction. The 1-D ring holds all p
// processes; the 2-D and 3-D topologies use CartSize processes.
func CartesianPatterns(p int, group string) []*Pattern {
	out := []*Pattern{{
		Name: "cart-1d-x", Group: group, Layout: fmt.Sprint(p),
		Steps: cart(p, []int{p}, []int{0}), Methods: AllMethods,
	}}
	for nd := 2; nd <= 3; nd++ {
		dims := DimsCreate(CartSize(p, nd), nd)
		layout := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(dims)), "x"), "[]")
		var all []int
		for d := 0; d < nd; d++ {
			all = append(all, d)
			if dims[d] < 2 {
				continue
			}
			out = append(out, &Pattern{
				Name: fmt.Sprintf("cart-%dd-%c", nd, 'x'+d), Group: group, Layout: layout,
				Steps: cart(p, dims, []int{d}), Methods: AllMethods,
			})
		}
		if dims[0] < 2 {
			continue // no direction longer than 1
		}
		out = append(out, &Pattern{
			Name: fmt.Sprintf("cart-%dd-%s", nd, "xyz"[:nd]), Group: group, Layout: layout,
			Steps: cart(p, dims, all), Methods: AllMethods,
		})
	}
	return out
}

// RingSizes are the standard ring sizes of the paper's six ring patterns.
func RingSizes(p int) []int {
	return []int{2, 4, 8, max(16, p/4), max(32, p/2), p}
}

// SplitRings splits p processes into rings of about size each, as the
// original b_eff does ("except the last rings", paper ref. [14]): the
// number of rings is size/p rounded with +0.4, at least 1 and at most p/2;
// the remainder makes some rings one larger. The larger rings come last,
// unless the smaller size is odd, then they come first (so that rings of
// 2, the cheapest to pair up, lead).
func SplitRings(p, size int) []int {
	size = min(size, p)
	n := max(1, min(int(float64(p)/float64(size)+0.4), p/2))
	low := p / n
	high := p - low*n // rings of low+1
	first, second := low, low+1
	nFirst, nSecond := n-high, high
	if low%2 == 1 && high > 0 {
		first, second, nFirst, nSecond = low+1, low, high, n-high
	}
	var out []int
	for i := 0; i < nFirst; i++ {
		out = append(out, first)
	}
	for i := 0; i < nSecond; i++ {
		out = append(out, second)
	}
	return out
}

// RingPatterns are the paper's six ring patterns on MPI_COMM_WORLD.
func RingPatterns(p int) []*Pattern {
	var out []*Pattern
	for i, size := range RingSizes(p) {
		sizes := SplitRings(p, size)
		steps := newSteps(p)
		base := 0
		for _, s := range sizes {
			ring(steps, seq(base, s))
			base += s
		}
		out = append(out, &Pattern{
			Name: fmt.Sprintf("ring-%d", i+1), Group: Ring, Layout: ringLayout(sizes),
			Steps: steps, Methods: AllMethods,
		})
	}
	return out
}

func ringLayout(sizes []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d rings:", len(sizes))
	for i, s := range sizes {
		if i == 0 || s != sizes[i-1] {
			fmt.Fprintf(&b, " %d", s)
		} else {
			b.WriteString(" .")
		}
	}
	return b.String()
}

// RandomOrder is the ring order of the k-th random pattern (k = 1..):
// a permutation of 0..p-1 drawn from PCG seeded with (seed, k), so that
// every rank computes the same one and a run is reproduced by its seed.
func RandomOrder(p int, seed uint64, k int) []int {
	return rand.New(rand.NewPCG(seed, uint64(k))).Perm(p)
}

// RandomPatterns are n rings through all processes, each in a random
// order (the original b_eff: "the processes are sorted by random ranks").
func RandomPatterns(p, n int, seed uint64) []*Pattern {
	var out []*Pattern
	for k := 1; k <= n; k++ {
		steps := newSteps(p)
		order := RandomOrder(p, seed, k)
		ring(steps, order)
		out = append(out, &Pattern{
			Name: fmt.Sprintf("random-%d", k), Group: Random, Layout: fmt.Sprint(order),
			Steps: steps, Methods: AllMethods,
		})
	}
	return out
}

// pairs lets the first process of each pair send first and the second
// answer (a "ping-pong" of two half-duplex steps), as the original's
// bi-section patterns do.
func pairs(p int, pp [][2]int) [][]Step {
	steps := newSteps(p)
	for _, q := range pp {
		a, b := q[0], q[1]
		steps[a] = append(steps[a], Step{b, None}, Step{None, b})
		steps[b] = append(steps[b], Step{None, a}, Step{a, None})
	}
	return steps
}

// AnalysisPatterns are measured and reported but not averaged into b_eff
// (paper, section 3): the worst-case cycle, the best and worst bi-section
// and a ping-pong between ranks 0 and 1, plus the 2-D and 3-D Cartesian
// patterns when they are not part of b_eff (-patterns rings).
func AnalysisPatterns(p int, rings bool) []*Pattern {
	// worst-case cycle: 0, p-1, 1, p-2, ... so that every hop is long in
	// rank distance (the original's "worst-cyc-1dim").
	worst := make([]int, p)
	for i := range worst {
		if i%2 == 0 {
			worst[i] = i / 2
		} else {
			worst[i] = p - 1 - i/2
		}
	}
	ws := newSteps(p)
	ring(ws, worst)
	n := p / 2 * 2 // with odd p the last process idles
	var best, far [][2]int
	for i := 0; i < n/2; i++ {
		best = append(best, [2]int{2 * i, 2*i + 1})
		far = append(far, [2]int{i, n - 1 - i})
	}
	out := []*Pattern{
		{Name: "worst-cycle", Group: Analysis, Layout: fmt.Sprint(worst), Steps: ws, Methods: AllMethods},
		{Name: "best-bisection", Group: Analysis, Layout: fmt.Sprint(best), Steps: pairs(p, best), Methods: AllMethods},
		{Name: "worst-bisection", Group: Analysis, Layout: fmt.Sprint(far), Steps: pairs(p, far), Methods: AllMethods},
	}
	if rings {
		for _, c := range CartesianPatterns(p, Analysis)[1:] {
			out = append(out, c)
		}
	}
	// Ping-pong: one message at a time, so only MPI_Sendrecv makes sense
	// (the original measures it with Sendrecv only).
	out = append(out, &Pattern{
		Name: PingPong, Group: Analysis, Layout: "0<->1",
		Steps: pairs(p, [][2]int{{0, 1}}), Methods: []string{Sendrecv},
	})
	return out
}

// PingPong names the ping-pong pattern, the source of Table 1's column.
const PingPong = "pingpong"

// Patterns is the whole list of a run: the primary group (Cartesian, or
// rings with rings set), nrandom random patterns, then the analysis ones.
func Patterns(p int, rings bool, nrandom int, seed uint64) []*Pattern {
	var out []*Pattern
	if rings {
		out = RingPatterns(p)
	} else {
		out = CartesianPatterns(p, Cartesian)
	}
	out = append(out, RandomPatterns(p, nrandom, seed)...)
	return append(out, AnalysisPatterns(p, rings)...)
}
