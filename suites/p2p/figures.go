package p2p

import (
	"slices"

	"mpibench/analysis/result"
)

// record turns the gathered measurement (time, messages, defects per
// rank) into the row's Record, with IMB-P2P's figures (imb_p2p_*.c, rank
// 0's part after the timed loop):
//
//   - messages M: nranks·iterations, or for the random and stencil
//     benchmarks half the sum of the messages every rank sent or received;
//   - t[usec]: 1e6 · (sum of the ranks' loop times) / D, with D = M, but
//     D = 2·M for PingPong (a round trip is two messages);
//   - Mbytes/sec: M · bytes / (1e6 · slowest loop time), MB = 10^6 bytes;
//   - Msg/sec: M / slowest loop time.
//
// TAvg is that t[usec]; TMin and TMax are the same figure with one rank's
// time in place of the mean over ranks: 1e6 · time · nranks / D.
func (d *driver) record(b *Benchmark, x, iters int, all []float64) *result.Record {
	n := d.size
	var times []float64
	sum, sent, defects := 0.0, 0.0, 0.0
	for r := 0; r < n; r++ {
		times = append(times, all[3*r])
		sum += all[3*r]
		sent += all[3*r+1]
		defects += all[3*r+2]
	}
	msgs := float64(iters * n)
	if b.Count == counted {
		msgs = float64(int64(sent) / 2) // IMB-P2P halves a size_t
	}
	div := msgs
	if b.Count == roundTrip {
		div = 2 * msgs
	}
	group := make([]int, n)
	for i := range group {
		group[i] = i
	}
	r := &result.Record{Suite: result.SuiteP2P, Benchmark: b.Name, Class: b.Pattern, Multi: -1, Group: -1,
		NProcs: n, Groups: [][]int{group}, Bytes: x, Reps: iters, Messages: int(msgs), Check: d.cfg.Check,
		Defects: defects, Context: d.context()}
	tmax := slices.Max(times)
	if div > 0 {
		r.TAvg = 1e6 * sum / div
		r.TMin = 1e6 * slices.Min(times) * float64(n) / div
		r.TMax = 1e6 * tmax * float64(n) / div
	}
	if tmax > 0 {
		r.MBps = msgs * float64(x) / (1e6 * tmax)
		r.MsgRate = msgs / tmax
	}
	return r
}

// context is the records' context: the run's, with IMB-P2P's flags given
// (options) and the IMB whose definitions ran, 2021.11's.
func (d *driver) context() result.Context {
	ctx := d.env.Ctx
	ctx.Options = d.cfg.Options
	ctx.IMB = "2021"
	return ctx
}
