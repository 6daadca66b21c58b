package imb

import (
	"fmt"
	"slices"

	"mpibench/mpi"
	"mpibench/result"
)

// Text receives the run on rank 0 and renders it; report.IMBText is the
// IMB-style table renderer.
type Text interface {
	Start(h result.Header) error
	Row(r *result.Record) error
	Comment(s string) error
	Finish(failed []string) error
}

// Output is where rank 0 sends results. Other ranks pass nil.
type Output struct {
	Text    Text
	Records *result.Writer // nil without -json
}

// Driver runs a Config on every rank of MPI_COMM_WORLD.
type Driver struct {
	cfg   *Config
	ctx   result.Context
	out   *Output
	world mpi.Comm
	rank  int
	size  int
	order []int
	bad   []string // benchmarks with defects in -check mode
}

// NewDriver prepares a run; out is nil on ranks other than 0.
func NewDriver(cfg *Config, ctx result.Context, out *Output) *Driver {
	w := mpi.World()
	d := &Driver{cfg: cfg, ctx: ctx, out: out, world: w, rank: w.Rank(), size: w.Size()}
	d.order = MapOrder(d.size, cfg.MapP, cfg.MapQ)
	return d
}

// Run measures every selected benchmark. An error returned here has been
// agreed by all ranks; an MPI failure inside a measurement is returned as
// is and the caller must abort the job.
func (d *Driver) Run() ([]string, error) {
	if err := d.speak(func() error { return d.out.Text.Start(d.header()) }); err != nil {
		return nil, err
	}
	for _, name := range d.cfg.Benchmarks {
		b, _ := Lookup(name)
		if err := d.runBenchmark(b); err != nil {
			return nil, err
		}
	}
	err := d.speak(func() error { return d.out.Text.Finish(d.bad) })
	return d.bad, err
}

func (d *Driver) header() result.Header {
	h := result.Header{Context: d.ctx, Part: "MPI-1", Benchmarks: d.cfg.Benchmarks, Multi: d.cfg.Multi,
		MinLen: 0, MaxLen: MaxMsg, Check: d.cfg.Check}
	if d.cfg.Lengths != nil {
		h.UserLens = true
		h.MinLen = slices.Min(d.cfg.Lengths)
		h.MaxLen = min(slices.Max(d.cfg.Lengths), MaxMsg)
	}
	return h
}

// speak runs fn on rank 0 and shares its error with every rank, so a
// failed write (disk full, closed pipe) stops all ranks together.
func (d *Driver) speak(fn func() error) error {
	var msg []byte
	if d.rank == 0 {
		if err := fn(); err != nil {
			msg = []byte(err.Error())
		}
	}
	msg, err := d.world.BcastBytes(msg)
	if err != nil {
		return err
	}
	if len(msg) > 0 {
		return fmt.Errorf("writing results: %s", msg)
	}
	return nil
}

// lengths are the message lengths of b. Barrier, IMB's Sync type, has no
// length and runs once, with MSGSPERSAMPLE repetitions.
func (d *Driver) lengths(b *Benchmark) []int {
	if b.NoBytes {
		return []int{0}
	}
	if d.cfg.Lengths == nil {
		return DefaultLengths(b.Unit())
	}
	lens, truncated := AdjustLengths(d.cfg.Lengths, b.Unit())
	for _, x := range truncated {
		d.comment(fmt.Sprintf("Attention, msg size %d truncated to %d", x, MaxMsg/b.Unit()*b.Unit()))
	}
	return lens
}

func (d *Driver) comment(s string) {
	if d.rank == 0 {
		d.out.Text.Comment(s)
	}
}

func (d *Driver) runBenchmark(b *Benchmark) error {
	lens := d.lengths(b)
	for _, q := range ProcessCounts(d.size, d.cfg.NPMin, b.Class) {
		if b.Class == SingleTransfer && q < 2 {
			d.comment(fmt.Sprintf("\n# !! Benchmark %s invalid for %d process   !! \n", b.Name, q))
			continue
		}
		if err := d.runCase(b, q, lens); err != nil {
			return err
		}
	}
	return nil
}

// runCase runs one benchmark on one process count over all lengths.
func (d *Driver) runCase(b *Benchmark, q int, lens []int) error {
	multi := d.cfg.Multi >= 0
	comm, err := d.world.Split(Color(d.rank, q, d.order, multi, d.size), d.order[d.rank])
	if err != nil {
		return err
	}
	defer comm.Free()
	c := newCase(b, comm, q, lens, d.cfg.Check)
	defer c.free()
	if err := c.setup(); err != nil {
		return err
	}
	groups := Layout(d.size, q, d.order, multi)
	for _, x := range lens {
		t, defects, err := c.measure(x)
		if err != nil {
			return err
		}
		all, err := d.world.GatherFloat64s([]float64{t, float64(defects)})
		if err != nil {
			return err
		}
		// Idle processes wait here in a well defined manner, as in IMB.
		if err := d.world.Barrier(); err != nil {
			return err
		}
		if err := d.speak(func() error { return d.emit(b, q, groups, x, all) }); err != nil {
			return err
		}
	}
	return nil
}

// emit turns the gathered per-rank times into Records and sends them on.
func (d *Driver) emit(b *Benchmark, q int, groups [][]int, x int, all []float64) error {
	var rows []*result.Record
	if d.cfg.Multi == 1 {
		for g := range groups {
			rows = append(rows, d.record(b, q, groups, g, x, all))
		}
	} else {
		rows = append(rows, d.record(b, q, groups, -1, x, all))
	}
	for _, r := range rows {
		if r.Defects > 0 && !slices.Contains(d.bad, b.Name) {
			d.bad = append(d.bad, b.Name)
		}
		if err := d.out.Text.Row(r); err != nil {
			return err
		}
		if d.out.Records != nil {
			if err := d.out.Records.Write(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// record summarises the ranks of one group (g >= 0) or of all groups.
func (d *Driver) record(b *Benchmark, q int, groups [][]int, g, x int, all []float64) *result.Record {
	r := &result.Record{Suite: "mpi1", Benchmark: b.Name, Class: b.Class.String(), Multi: d.cfg.Multi,
		Group: g, NProcs: q, Groups: groups, Bytes: x, Reps: Repetitions(x), Check: d.cfg.Check, Context: d.ctx}
	if d.cfg.MapP > 1 && d.cfg.MapQ > 1 {
		r.Map = []int{d.cfg.MapP, d.cfg.MapQ}
	}
	var ranks []int
	for i, grp := range groups {
		if g < 0 || g == i {
			ranks = append(ranks, grp...)
		}
	}
	var times []float64
	for _, w := range ranks {
		times = append(times, all[2*w]*1e6*b.TimeScale)
		r.Defects += all[2*w+1]
	}
	r.TMin, r.TMax, r.TAvg = MinMaxAvg(times)
	if b.Factor > 0 && r.TMax > 0 {
		r.MBps = b.Factor * float64(x) / 1.048576 / r.TMax
	}
	return r
}

// MinMaxAvg returns the minimum, maximum and mean of v (zeros when empty).
func MinMaxAvg(v []float64) (lo, hi, avg float64) {
	if len(v) == 0 {
		return 0, 0, 0
	}
	lo, hi = v[0], v[0]
	for _, t := range v {
		lo, hi, avg = min(lo, t), max(hi, t), avg+t
	}
	return lo, hi, avg / float64(len(v))
}
