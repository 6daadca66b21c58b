package osu

import (
	"encoding/json"
	"slices"

	"mpibench/mpi"
	"mpibench/suites/osu/kernel"
)

// The congestion tests osu_bw_fan_in and osu_bw_fan_out
// (c/mpi/pt2pt/congestion/osu_bw_fan_in.c, osu_bw_fan_out.c and
// utils/osu_bw_fan_util.c, omb_fan_init). The processes are grouped by
// node, a node being a distinct MPI_Get_processor_name, the names in
// ascending byte order (OSU's qsort with strcmp); the first node's
// processes are the parents, every other node's the children. The l-th
// process of each child node is paired with the l-th parent: fan-in, the
// children send to their parent at once (Nodes-1 senders per parent);
// fan-out, each parent sends to its Nodes-1 children at once. Every node
// must hold the same number of processes (PPN), and there must be two
// nodes at least, or OSU stops with an error.

// optsCong is OMBOP__PT2PT__CONG_BW (osu_util_options.h): no -c, -u or -t.
const optsCong = "+:hvm:x:i:W:b:G:D:P:T:Iz::"

func init() {
	register(
		&Benchmark{Name: "osu_bw_fan_in", Title: "Bandwidth Test", Kind: Congestion, Opts: optsCong,
			Calls: "MPI_Isend, MPI_Irecv, MPI_Waitall (children to parent)", Procs: atLeastTwo,
			Measure: measureFan(true)},
		&Benchmark{Name: "osu_bw_fan_out", Title: "Bandwidth Test", Kind: Congestion, Opts: optsCong,
			Calls: "MPI_Isend, MPI_Irecv, MPI_Waitall (parent to children)", Procs: atLeastTwo,
			Measure: measureFan(false)},
	)
}

// fanPlan is omb_fan_init's outcome: At[node][l] is the world rank of the
// l-th process of a node (node 0: the parents), in rank order within a
// node. Err is OSU's refusal, if any.
type fanPlan struct {
	Nodes int     `json:"nodes"`
	PPN   int     `json:"ppn"`
	At    [][]int `json:"at"`
	Err   string  `json:"err,omitempty"`
}

// planFan groups the ranks by their processor names (names[r] is rank
// r's). OSU sorts every rank's name with qsort, whose order among equal
// names the C standard leaves open (glibc's merge sort keeps rank order);
// here the ranks of a node are in rank order.
func planFan(names []string) *fanPlan {
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case names[a] < names[b]:
			return -1
		case names[a] > names[b]:
			return 1
		}
		return 0
	})
	p := &fanPlan{}
	for i, r := range order {
		if i == 0 || names[r] != names[order[i-1]] {
			p.At = append(p.At, nil)
		}
		p.At[len(p.At)-1] = append(p.At[len(p.At)-1], r)
	}
	p.Nodes, p.PPN = len(p.At), len(p.At[0])
	switch {
	case p.Nodes == 1:
		// osu_bw_fan_util.c's OMB_ERROR_EXIT messages.
		p.Err = "Please run this benchmark on more than 1 node (OSU 7.4; a node is a distinct " +
			"MPI_Get_processor_name, and all processes have the same)"
	default:
		for _, n := range p.At {
			if len(n) != p.PPN {
				p.Err = "Please run this benchmark with same ppn for all nodes (OSU 7.4)"
			}
		}
	}
	return p
}

// where is rank's node and index on it.
func (p *fanPlan) where(rank int) (node, local int) {
	for n, ranks := range p.At {
		if l := slices.Index(ranks, rank); l >= 0 {
			return n, l
		}
	}
	return -1, -1
}

// role is rank's part in fan-in (in) or fan-out: whether it sends and
// times, and its peers in OSU's order (ranks_queue): a parent's children
// node by node, a child's parent.
func (p *fanPlan) role(rank int, in bool) (send bool, peers []int) {
	node, l := p.where(rank)
	if node == 0 {
		for n := 1; n < p.Nodes; n++ {
			peers = append(peers, p.At[n][l])
		}
	} else {
		peers = []int{p.At[0][l]}
	}
	return in == (node != 0), peers
}

// tailRank is the rank whose per-iteration figures -z shows: fan-in's
// first process of the first child node (osu_bw_fan_in.c sends rank 0 the
// array of "local_rank 0 and node_id 2"), fan-out's first parent (rank
// 0's own array in OSU, which assumes rank 0 is that parent).
func (p *fanPlan) tailRank(in bool) int {
	if in {
		return p.At[1][0]
	}
	return p.At[0][0]
}

// fanSetup makes the plan on rank 0 from every rank's processor name and
// gives it to every rank (once per run, before the preamble, where OSU
// calls omb_fan_init).
func fanSetup(world mpi.Comm) (*fanPlan, error) {
	names, err := world.GatherProcessorNames()
	if err != nil {
		return nil, err
	}
	var b []byte
	if world.Rank() == 0 {
		if b, err = json.Marshal(planFan(names)); err != nil {
			return nil, err
		}
	}
	if b, err = world.BcastBytes(b); err != nil {
		return nil, err
	}
	p := &fanPlan{}
	return p, json.Unmarshal(b, p)
}

// measureFan is Measure for osu_bw_fan_in (in) and osu_bw_fan_out.
func measureFan(in bool) func(r *Run, size int64) (Result, error) {
	return func(r *Run, size int64) (Result, error) {
		s := r.spec(mpi.OSUFan, size)
		s.FanSend, s.Peers = r.Fan.role(r.Rank, in)
		res, err := kernel.Run(r.World, s)
		if err != nil {
			return Result{}, err
		}
		vals := []float64{res.Time}
		if s.Samples {
			vals = append(vals, res.Samples...) // zeros on a rank that times nothing
		}
		all, err := r.World.GatherFloat64s(vals)
		if err != nil || r.Rank != 0 {
			return Result{}, err
		}
		return r.fanFigures(in, s, size, all), nil
	}
}

// fanFigures are OSU's figures of a fan test from every rank's time (and
// samples): the timed ranks' times summed (MPI_Reduce, SUM) and divided by
// their number (fan-in: ppn·(nodes-1) children, fan-out: ppn parents),
// and the bandwidth size/1e6 · ppn · iterations · window · (nodes-1)
// over that mean time; -z's figure of iteration i is the same aggregate
// over the tail rank's time of that iteration.
func (r *Run) fanFigures(in bool, s *kernel.Spec, size int64, all []float64) Result {
	var out Result
	f, stride := r.Fan, len(all)/r.Size
	var sum float64
	var timed int
	for n, ranks := range f.At {
		if in == (n != 0) { // the timed ranks (sends): fan-in's child nodes, fan-out's parents
			for _, rank := range ranks {
				sum += all[rank*stride]
				timed++
			}
		}
	}
	bytes := float64(size)
	if r.Opts.DDT != nil {
		bytes = float64(r.Transmit(size))
	}
	agg := bytes / 1e6 * float64(s.Window) * float64(f.PPN) * float64(f.Nodes-1)
	out.Avg = agg * float64(s.Iters) / (sum / float64(timed))
	t := f.tailRank(in)
	for _, x := range all[t*stride+1 : (t+1)*stride] {
		out.Samples = append(out.Samples, agg/x)
		out.Times = append(out.Times, x*1e6)
	}
	return out
}
