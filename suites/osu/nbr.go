package osu

import (
	"fmt"
	"strings"

	"mpibench/suites/osu/kernel"
)

// The neighbourhood tests' set-up (osu_neighbor_*.c, osu_ineighbor_*.c,
// before print_preamble): the topology of -N made once per run, as a
// distributed graph of every rank's sources and destinations
// (omb_neighborhood_create, MPI_Dist_graph_create_adjacent), with OSU's
// two lines before the preamble: the cartesian dimensions ("Dimensions
// size = ", each followed by a space) and the creation time, summed over
// the ranks and divided by them, in µs.

// topology makes r's graph (every rank calls it; nothing for the other
// tests). The neighbours come from the topology's definition on every
// rank alike, so an error (the radius, a graph node beyond the processes)
// is every rank's.
func (d *driver) topology() error {
	r := d.run
	t := r.Opts.Topology
	if t == nil || !collKind(r.Bench).Neighbourhood() {
		return nil
	}
	var n *neighbours
	var err error
	switch t.Kind {
	case "cart":
		dims, err := kernel.CartDims(r.World, t.Dim)
		if err != nil {
			return err
		}
		err = d.speak(func() error {
			var b strings.Builder
			for _, v := range dims {
				fmt.Fprintf(&b, "%d ", v)
			}
			return d.text.Line("Dimensions size = " + b.String())
		})
		if err == nil {
			err = cartRadius(dims, t.Rad, r.Size)
		}
		if err != nil {
			return err
		}
		n = cartNeighbours(dims, t.Rad, r.Size)
	default:
		if n, err = t.graphNeighbours(r.Size); err != nil {
			return err
		}
	}
	me := r.Rank
	g, sec, err := kernel.NewGraph(r.World, n.srcs[me], n.dsts[me], n.blocks(me))
	if err != nil {
		return err
	}
	r.Graph = g
	all, err := r.World.GatherFloat64s([]float64{sec}) // OSU: MPI_Reduce, MPI_SUM, to rank 0
	if err != nil {
		return err
	}
	return d.speak(func() error {
		sum := 0.0
		for _, v := range all {
			sum += v
		}
		return d.text.Line(fmt.Sprintf("Time took to create topology graph:%.2f us.", sum*1e6/float64(r.Size)))
	})
}

// graphSpan is the blocks a rank's buffers hold for g: its larger degree
// (0 without a graph).
func graphSpan(g *kernel.Graph) int {
	if g == nil {
		return 0
	}
	return max(g.In, g.Out)
}
