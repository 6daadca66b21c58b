package imb

import (
	"fmt"

	"mpibench/run/cases"
	"mpibench/run/mpijob"
)

// key is the journal key of benchmark b at q processes, mode m and
// length x: "mpi1/PingPong/np2/1024", with the mode before the length
// where the benchmark has modes ("io/P_Write_Indv/np2/aggregate/1024").
func (d *Driver) key(b *Benchmark, q int, m Mode, x int) string {
	if m == NoMode {
		return fmt.Sprintf("%s/%s/np%d/%d", d.suite.Name, b.Name, q, x)
	}
	return fmt.Sprintf("%s/%s/np%d/%s/%d", d.suite.Name, b.Name, q, m, x)
}

// caseOf describes a case to the watchdog. A non-blocking IMB-IO case
// also runs CPU_Exploit once per repetition.
func (d *Driver) caseOf(key string, b *Benchmark, q int, m Mode, x int) cases.Case {
	reps := d.set.Repetitions(x, m)
	c := cases.Case{Suite: d.suite.Name, Benchmark: b.Name, Bytes: int64(x), Procs: q, Reps: reps, Key: key}
	if m == NonBlocking {
		c.Expect = cases.Seconds(float64(reps) * d.cpu)
	}
	if b.Class == ParallelTransferMsgRate {
		c.Reps *= d.cfg.windowSize() // a repetition is a window of messages: the watchdog allows for each
	}
	return c
}

// modes are the modes b runs in.
func modes(b *Benchmark) []Mode {
	if b.Modes == nil {
		return []Mode{NoMode}
	}
	return b.Modes
}

// resumed tells whether -resume skips every case of b at q processes, so
// that not even its setup (windows, files) is done.
func (d *Driver) resumed(b *Benchmark, q int, lens []int) bool {
	if d.cases == nil {
		return false
	}
	for _, m := range d.cfg.F.runModes(b) {
		for _, x := range lens {
			if !d.cases.Skip(d.key(b, q, m, x)) {
				return false
			}
		}
	}
	return true
}

// replayAll shows every case of b at q processes from the resumed run,
// and writes those left out for memory (out) that it lacks.
func (d *Driver) replayAll(b *Benchmark, q int, lens []int, out map[int]leftOut) error {
	groups := Layout(d.size, q, d.order, d.cfg.Multi >= 0)
	for _, m := range d.cfg.F.runModes(b) {
		for _, x := range lens {
			step := d.step(b, q, m, x)
			if o, ok := out[x]; ok {
				step = d.skipStep(b, q, groups, m, x, o)
			}
			if _, _, err := d.loop.Run(step); err != nil {
				return err
			}
		}
	}
	return nil
}

// step is the case of b at q processes, mode m and length x, less its
// measurement: its rows, or, where -resume skips it, those it left in the
// results file or a note that it hung there.
func (d *Driver) step(b *Benchmark, q int, m Mode, x int) mpijob.Step {
	key := d.key(b, q, m, x)
	return mpijob.Step{Case: d.caseOf(key, b, q, m, x), Show: d.show,
		Hung: func() error {
			return d.out.Text.Comment(fmt.Sprintf("# %s, %d bytes: hung in the resumed run, not measured (%s)",
				b.Name, x, key))
		}}
}
