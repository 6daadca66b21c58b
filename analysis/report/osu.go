package report

import (
	"fmt"
	"math"
	"strings"

	"mpibench/analysis/result"
)

// osuKey is what tells the plots of OSU records apart: one test on one
// layout with one datatype, derived type, window and pairs.
type osuKey struct {
	input                      int
	benchmark, class, datatype string
	ddt                        string
	nprocs, window, pairs      int
	inPlace                    bool
}

// OSU's kinds of test (osu/bench.go's kindNames).
const (
	osuBandwidth      = "bandwidth"
	osuMultiBandwidth = "multi-bandwidth"
	osuCollective     = "collective"
	osuNonBlocking    = "non-blocking"
)

// addOSU plots an OSU record as OSU prints it: the latency tests' Latency
// (us), the collectives' Avg Latency(us) (with -f's minimum and maximum
// dashed), the non-blocking collectives' Overall(us) (Compute and Pure
// Comm. dashed, Overlap(%) in a panel of its own), the bandwidth tests'
// Bandwidth (MB/s) (osu_mbw_mr's Messages/s in a panel of its own); -z's
// percentiles dashed.
func (g *grouper) addOSU(i int, label string, r *result.Record) {
	o := r.OSU
	if o == nil {
		o = &result.OSU{}
	}
	k := osuKey{i, r.Benchmark, r.Class, o.Datatype, o.DDT, r.NProcs, r.Window, o.Pairs, o.InPlace}
	ss, ok := g.osu[k]
	if !ok {
		ss = g.osuSeries(i, label, r)
		if g.osu == nil {
			g.osu = map[osuKey][]*Series{}
		}
		g.osu[k] = ss
	}
	rate := osuRate(r.Class)
	for j, v := range osuValues(r) {
		if j >= len(ss) || math.IsNaN(v) || (j > 0 && v == 0) {
			continue
		}
		p := Point{X: float64(r.Bytes), Y: v, Bytes: r.Bytes, Time: v, MBps: perMicro(r.Bytes, v)}
		if rate {
			p.Time, p.MBps = 0, v
		}
		if j == 0 {
			p.Aux = osuAux(r)
			g.addCase(ss[0], p.X, r)
			ss[0].addRun(r)
		}
		ss[j].add(p, "")
	}
}

// osuRate is whether a kind of test reports a bandwidth.
func osuRate(class string) bool {
	return class == osuBandwidth || class == osuMultiBandwidth
}

// osuValues are the figures of a record in the order of its series
// (osuNames): the main one first, then the dashed ones.
func osuValues(r *result.Record) []float64 {
	var vs []float64
	switch {
	case osuRate(r.Class):
		vs = []float64{r.MBps}
	case r.Class == osuNonBlocking && r.OSU != nil && r.OSU.NBC != nil:
		n := r.OSU.NBC
		vs = []float64{n.Overall, n.Compute, n.Pure}
	case r.Class == osuCollective:
		vs = []float64{r.TAvg, r.TMin, r.TMax}
	default:
		vs = []float64{r.TAvg}
	}
	if r.OSU != nil {
		for _, t := range r.OSU.Tail {
			vs = append(vs, t.Value)
		}
	}
	return vs
}

// osuNames name the series of osuValues.
func osuNames(r *result.Record) []string {
	var names []string
	switch {
	case osuRate(r.Class):
		names = []string{"bandwidth"}
	case r.Class == osuNonBlocking && r.OSU != nil && r.OSU.NBC != nil:
		names = []string{"overall", "compute", "pure comm."}
	case r.Class == osuCollective:
		names = []string{"avg latency", "min latency", "max latency"}
	default:
		names = []string{"latency"}
	}
	if r.OSU != nil {
		for _, t := range r.OSU.Tail {
			names = append(names, fmt.Sprintf("P%d", t.P))
		}
	}
	return names
}

// osuAux is the figure of the record's own panel: osu_mbw_mr's
// Messages/s, the non-blocking collectives' Overlap(%).
func osuAux(r *result.Record) float64 {
	if r.Class == osuNonBlocking && r.OSU != nil && r.OSU.NBC != nil {
		return r.OSU.NBC.Overlap
	}
	return r.MsgRate
}

// osuSeries makes the series of an OSU record's plot.
func (g *grouper) osuSeries(i int, label string, r *result.Record) []*Series {
	proto := osuMeasurement(r)
	var ss []*Series
	for k, name := range osuNames(r) {
		s := g.series(proto, i, k, label+" "+name)
		s.rate = osuRate(r.Class)
		ss = append(ss, s)
	}
	return ss
}

func osuMeasurement(r *result.Record) Measurement {
	o := r.OSU
	if o == nil {
		o = &result.OSU{}
	}
	id := fmt.Sprintf("osu-%s-np%d-%s", r.Benchmark, r.NProcs, o.Datatype)
	title := fmt.Sprintf("%s, %d processes", r.Benchmark, r.NProcs)
	var extra []string
	if o.Datatype != "" && o.Datatype != "MPI_CHAR" {
		extra = append(extra, o.Datatype)
	}
	if o.DDT != "" {
		extra = append(extra, "-D "+o.DDT)
		id += "-" + o.DDT
	}
	if o.InPlace {
		extra = append(extra, "in place")
		id += "-inplace"
	}
	if o.Pairs > 0 {
		extra = append(extra, plural(o.Pairs, "pair"))
		id += fmt.Sprintf("-pairs%d", o.Pairs)
	}
	if osuRate(r.Class) {
		extra = append(extra, fmt.Sprintf("window %d", r.Window))
		id += fmt.Sprintf("-w%d", r.Window)
	}
	if len(extra) > 0 {
		title += ", " + strings.Join(extra, ", ")
	}
	m := Measurement{ID: anchor(id), Suite: result.SuiteOSU, Title: title, LogX: true,
		XLabel: "message length (bytes)", YLabel: "time (µs)", Note: osuNotes[r.Class]}
	if m.Note == "" {
		m.Note = osuNotes["latency"]
	}
	switch {
	case osuRate(r.Class):
		m.YLabel = "MB/s"
		if r.MsgRate > 0 {
			m.Aux = &rateAux
		}
	case r.Class == osuNonBlocking:
		m.Aux = &overlapAux
	}
	return m
}

// osuNotes say what the plots of each kind of OSU test show.
var osuNotes = map[string]string{
	"latency":     "OSU's Latency (us): the mean time of one message over the timed iterations (half a round trip for the ping-pong tests, averaged over the pairs for osu_multi_lat); -z's percentiles of the iterations dashed.",
	osuCollective: "OSU's Avg Latency(us): the time of one call averaged over the ranks; the fastest and the slowest rank's (-f's Min and Max) and -z's percentiles dashed.",
	osuNonBlocking: "OSU's Overall(us): the time of one call with compute overlapped (the call, the dummy compute, the MPI_Test calls, MPI_Wait), averaged over the ranks; Compute(us) (the dummy compute alone) and Pure Comm.(us) (the call and its wait, no compute) dashed. " +
		"Overlap(%) = max(0, 100 − (overall − compute) / pure · 100) in a panel of its own.",
	osuBandwidth:      "OSU's Bandwidth (MB/s), MB = 10^6 bytes: the bytes of the windows of messages over their time (osu_bibw: both directions); -z's percentiles of the iterations dashed.",
	osuMultiBandwidth: "OSU's MB/s, MB = 10^6 bytes: the bytes all pairs sent over the time (osu_mbw_mr); Messages/s in a panel of its own; -z's percentiles of the iterations dashed.",
}
