package report

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
	"mpibench/internal/textout"
)

// Input is one results file of a report: its name and its records.
type Input struct {
	Name    string
	Records []result.Record
}

// Point is one plotted value and the figures stated beside the plot.
type Point struct {
	X     float64 // abscissa: bytes, processes or workpieces
	Y     float64 // the plotted value
	Err   float64 // standard error of Y; 0 when there is none
	Band  float64 // allowed standard error (SKaMPI: ε·trimmed mean); 0 when there is none
	Bytes int     // message length (chunk size for b_eff_io)
	Time  float64 // µs of one operation
	MBps  float64 // bandwidth, MB = 10^6 bytes
	BW    float64 // the record's own throughput column in MB/s, MB = 10^6 bytes; 0 for none
	Aux   float64 // the figure of the measurement's AuxPanel (message rate, overlap)
	N     int     // measurements Y is the median of (a file may repeat one)
	Lo    float64 // the smallest and largest of them; Y when N is 1
	Hi    float64
}

// Series is one line of a plot.
type Series struct {
	Label  string
	Name   string // the benchmark or SKaMPI measurement plotted
	Input  int    // index of the Input it comes from
	Kind   int    // 0 the main figure, 1.. the secondary ones (dashed)
	Points []Point

	// While records come in: the index of each point by abscissa and
	// measurement, and the values of the points measured more than once.
	at    map[pointKey]int
	ys    [][]float64
	times [][]float64 // of a rate series
	bws   [][]float64 // the throughputs of a main series
	auxs  [][]float64 // the AuxPanel figures of a main series
	sync  *syncTally  // the -sync figures of a main series' records
	count []string    // the count_mode of its records of 2 GiB and more, each once
	rate  bool        // Y is a bandwidth and Time its own figure (b_eff_io)
}

// pointKey tells the points of a series apart: the abscissa, and for
// b_eff_io the pattern (two patterns may share a chunk size).
type pointKey struct {
	x   float64
	sub string
}

// add takes a point; one at an abscissa the series has is a repetition
// of that measurement, kept for aggregate.
func (s *Series) add(p Point, sub string) {
	k := pointKey{p.X, sub}
	if i, ok := s.at[k]; ok {
		q := s.Points[i]
		if s.ys[i] == nil {
			s.ys[i] = []float64{q.Y}
			s.times[i] = []float64{q.Time}
			s.bws[i] = []float64{q.BW}
			s.auxs[i] = []float64{q.Aux}
		}
		s.ys[i] = append(s.ys[i], p.Y)
		if s.rate {
			s.times[i] = append(s.times[i], p.Time)
		}
		if s.Kind == 0 {
			s.bws[i] = append(s.bws[i], p.BW)
			s.auxs[i] = append(s.auxs[i], p.Aux)
		}
		return
	}
	if s.at == nil {
		s.at = map[pointKey]int{}
	}
	s.at[k] = len(s.Points)
	s.Points = append(s.Points, p)
	s.ys = append(s.ys, nil)
	s.times = append(s.times, nil)
	s.bws = append(s.bws, nil)
	s.auxs = append(s.auxs, nil)
}

// aggregate makes each repeated point the median of its measurements
// with their range in Lo and Hi, and says whether there was one. A
// median has no standard error of its own: Err and Band go.
func (s *Series) aggregate() bool {
	spread := false
	for i := range s.Points {
		p := &s.Points[i]
		p.N, p.Lo, p.Hi = 1, p.Y, p.Y
		if i >= len(s.ys) || s.ys[i] == nil {
			continue
		}
		spread = true
		ys := s.ys[i]
		p.N, p.Y, p.Lo, p.Hi = len(ys), stats.Median(ys), slices.Min(ys), slices.Max(ys)
		p.Err, p.Band = 0, 0
		if s.rate {
			p.MBps, p.Time = p.Y, stats.Median(s.times[i])
		} else {
			p.Time, p.MBps = p.Y, perMicro(p.Bytes, p.Y)
		}
		if len(s.bws[i]) > 1 {
			p.BW = stats.Median(s.bws[i])
		}
		if len(s.auxs[i]) > 1 {
			p.Aux = stats.Median(s.auxs[i])
		}
	}
	s.at, s.ys, s.times, s.bws, s.auxs = nil, nil, nil, nil, nil
	return spread
}

// Measurement is what one plot shows: one benchmark on one process
// layout (or one SKaMPI measurement), every input overlaid.
type Measurement struct {
	ID     string // unique, usable as an anchor and a file name
	Suite  string
	Title  string
	XLabel string
	YLabel string
	LogX   bool
	Note   string // what the plotted figure is
	// A ratio plot: a linear time axis with a line at Ref (1).
	LinearY bool
	Ref     float64
	Series  []*Series
	// base is the baseline input (Collector.Baseline): its series is what
	// the ratios and differences are taken against where it has one.
	base int
	// Aux is the panel of a figure the records carry besides the time or
	// bandwidth (aux.go); nil for none.
	Aux *AuxPanel
}

// Figure is the latency and bandwidth of a main series at its smallest
// and largest abscissa.
type Figure struct {
	Label         string
	First, Last   Point
	Unit          string // of X
	Single        bool   // one point only
	FirstX, LastX string // X with its unit
}

// Figures of the main series, in input order.
func (m *Measurement) Figures() []Figure {
	var fs []Figure
	for _, s := range m.Series {
		if s.Kind != 0 || len(s.Points) == 0 {
			continue
		}
		f := Figure{Label: s.Label, First: figurePoint(s.Points[0]), Last: figurePoint(s.Points[len(s.Points)-1])}
		f.Single = len(s.Points) == 1
		f.FirstX, f.LastX = m.xText(f.First), m.xText(f.Last)
		fs = append(fs, f)
	}
	return fs
}

// figurePoint is a point as its figures state it: the bandwidth is the
// record's own throughput where it has one, as the bandwidth plot draws
// it (IMB's counts both directions of Sendrecv and Exchange's four
// messages), else bytes per time.
func figurePoint(p Point) Point {
	if p.BW > 0 {
		p.MBps = p.BW
	}
	return p
}

func (m *Measurement) xText(p Point) string {
	if strings.HasPrefix(m.XLabel, "message length") || strings.HasPrefix(m.XLabel, "chunk") {
		return textout.Bytes(p.Bytes)
	}
	return fmt.Sprintf("%s %g (%s)", strings.Fields(m.XLabel)[0], p.X, textout.Bytes(p.Bytes))
}

// suiteOrder is the order of the report's sections; other suites follow.
var suiteOrder = []string{result.SuiteMPI1, result.SuiteEXT, result.SuiteIO, result.SuiteBeff, result.SuiteBeffIO,
	result.SuiteSkampi, result.SuiteP2P, result.SuiteNBC, result.SuiteMPI4, result.SuiteRMA, result.SuiteOSU,
	result.SuitePGMPI}

// suiteTitles are the section headings.
var suiteTitles = map[string]string{
	result.SuiteMPI1: "IMB-MPI1", result.SuiteEXT: "IMB-EXT", result.SuiteIO: "IMB-IO",
	result.SuiteBeff: "b_eff", result.SuiteBeffIO: "b_eff_io", result.SuiteSkampi: "SKaMPI",
	result.SuiteP2P: "IMB-P2P", result.SuiteNBC: "IMB-NBC", result.SuiteMPI4: "IMB-MPI4", result.SuiteRMA: "IMB-RMA",
	result.SuiteOSU: "OSU Micro-Benchmarks", result.SuitePGMPI: "PGMPI",
}

// Group turns the records of every input into measurements, in suite
// order and within a suite in order of first appearance. Records of
// -check runs (not benchmark data), summary records and the lengths a
// run left out for memory (result.Record.Skipped) are left out.
func Group(inputs []Input) []*Measurement {
	return collect(inputs).Measurements()
}

func suiteRank(s string) int {
	if i := slices.Index(suiteOrder, s); i >= 0 {
		return i
	}
	return len(suiteOrder)
}

// groupPrune keeps the secondary series (t_avg, t_min, b per method)
// only for a single input, where they do not crowd the overlay, and only
// where they differ from the main one: a ping-pong's t_min is its t_max.
func groupPrune(m *Measurement, inputs int) {
	main := map[int]*Series{}
	for _, s := range m.Series {
		if s.Kind == 0 {
			main[s.Input] = s
		}
	}
	m.Series = slices.DeleteFunc(m.Series, func(s *Series) bool {
		return s.Kind != 0 && (inputs > 1 || sameSeries(s, main[s.Input]))
	})
}

// sameSeries is whether two series agree within 1 % at every point.
func sameSeries(a, b *Series) bool {
	if b == nil || len(a.Points) != len(b.Points) {
		return false
	}
	for i, p := range a.Points {
		q := b.Points[i]
		if p.X != q.X || math.Abs(p.Y-q.Y) > 1e-2*math.Max(math.Abs(p.Y), math.Abs(q.Y)) {
			return false
		}
	}
	return true
}

// groupPositiveX is whether some abscissa is positive: a log axis needs
// one (zeros are drawn at the left edge, see plotZero).
func groupPositiveX(m *Measurement) bool {
	for _, s := range m.Series {
		for _, p := range s.Points {
			if p.X > 0 {
				return true
			}
		}
	}
	return false
}

// InputLabel names an input in legends: the file name, the host and the
// MPI library of its first record.
func InputLabel(in Input) string {
	if len(in.Records) == 0 {
		return filepath.Base(in.Name)
	}
	return inputLabel(in.Name, &in.Records[0])
}

func inputLabel(name string, first *result.Record) string {
	label := filepath.Base(name)
	c := first.Context
	var parts []string
	if c.Host != "" {
		parts = append(parts, c.Host)
	}
	if lib := shortLibrary(c); lib != "" {
		parts = append(parts, lib)
	}
	if len(parts) > 0 {
		label += " (" + strings.Join(parts, ", ") + ")"
	}
	return label
}

// shortLibrary is the MPI library up to its first comma ("Open MPI
// v4.1.4, package: ..."), else the flavour.
func shortLibrary(c result.Context) string {
	if c.MPILibrary != "" {
		lib, _, _ := strings.Cut(c.MPILibrary, ",")
		return strings.TrimSpace(lib)
	}
	return c.MPI
}

type grouper struct {
	byID  map[string]*Measurement
	order []*Measurement
	imb   map[imbKey][3]*Series
	osu   map[osuKey][]*Series
	// cases are the identity (result.Identity) of the records of each
	// point of a main IMB or SKaMPI series, for compare's verdict on it;
	// b_eff's points are maxima over several cases and have none.
	cases map[pointRef]string
}

// pointRef is a point of a series, by its abscissa.
type pointRef struct {
	s *Series
	x float64
}

// addCase notes the identity of the point r makes in s.
func (g *grouper) addCase(s *Series, x float64, r *result.Record) {
	if _, ok := g.cases[pointRef{s, x}]; ok {
		return
	}
	if g.cases == nil {
		g.cases = map[pointRef]string{}
	}
	g.cases[pointRef{s, x}] = result.Identity(r)
}

// series returns the series of input i and kind k in the measurement
// with the given identity, creating both as needed.
func (g *grouper) series(proto Measurement, input, kind int, label string) *Series {
	m := g.byID[proto.ID]
	if m == nil {
		m = &proto
		g.byID[m.ID] = m
		g.order = append(g.order, m)
	}
	for _, s := range m.Series {
		if s.Input == input && s.Label == label {
			return s
		}
	}
	s := &Series{Label: label, Input: input, Kind: kind}
	m.Series = append(m.Series, s)
	return s
}

func (g *grouper) add(i int, label string, r *result.Record) {
	if r.Check || r.Beff != nil || r.BeffIO != nil || r.Class == "summary" {
		return
	}
	switch r.Suite {
	case result.SuiteBeff:
		g.addBeff(i, label, r)
	case result.SuiteBeffIO:
		g.addBeffIO(i, label, r)
	case result.SuiteSkampi:
		g.addSKaMPI(i, label, r)
	case result.SuiteOSU:
		g.addOSU(i, label, r)
	default:
		g.addIMB(i, label, r)
	}
}

// addIMB plots t_max, the time IMB's throughput is computed from and the
// one its tables lead with; t_avg and t_min follow dashed.
func (g *grouper) addIMB(i int, label string, r *result.Record) {
	// A million records are a few hundred series: find them without
	// making the identity, title and labels again for every record.
	k := imbKey{i, r.Suite, r.Benchmark, r.Mode, r.NProcs, r.Multi, r.Group}
	ss, ok := g.imb[k]
	if !ok {
		ss = g.imbSeries(i, label, r)
		if g.imb == nil {
			g.imb = map[imbKey][3]*Series{}
		}
		g.imb[k] = ss
	}
	vs, aux := [3]float64{r.TMax, r.TAvg, r.TMin}, r.MsgRate
	if r.TOvrl > 0 {
		vs, aux = [3]float64{r.TOvrl, r.TPure, r.TCPU}, r.Overlap
	}
	for k, v := range vs {
		p := Point{X: float64(r.Bytes), Y: v, Bytes: r.Bytes, Time: v, MBps: perMicro(r.Bytes, v)}
		if k == 0 {
			p.BW, p.Aux = r.MBps*throughputUnit(r)/1e6, aux
			g.addCase(ss[k], p.X, r)
			ss[k].addRun(r)
		}
		ss[k].add(p, "")
	}
}

// throughputUnit is the MB of a record's mbytes_per_sec (result.Record):
// 2^20 bytes for IMB 3.0's benchmarks under IMB 3.0's definitions (a
// record of mpi1, ext or io whose context names IMB 3.0, or none, from
// before context.imb), 10^6 for IMB 2021's (-imb 2021, the benchmarks
// IMB 2021 added, imb.MPI1From2021) and every other suite's. The page
// draws every throughput in MB of 10^6 bytes, so that inputs of either
// IMB meet on one axis.
func throughputUnit(r *result.Record) float64 {
	imb3 := r.Context.IMB == "3.0" ||
		r.Context.IMB == "" && (r.Suite == result.SuiteMPI1 || r.Suite == result.SuiteEXT || r.Suite == result.SuiteIO)
	if imb3 && !rates2021[r.Benchmark] {
		return 1 << 20
	}
	return 1e6
}

// rates2021 are the benchmarks with a throughput column that IMB 2021
// added to IMB-MPI1 (imb.MPI1From2021; a test checks the two agree): an
// IMB 3.0 run that names them writes their rates with MB = 10^6.
var rates2021 = map[string]bool{"PingPongSpecificSource": true, "PingPongAnySource": true,
	"PingPingSpecificSource": true, "PingPingAnySource": true, "Uniband": true, "Biband": true}

// imbKey is what tells the series of IMB records apart.
type imbKey struct {
	input                  int
	suite, benchmark, mode string
	nprocs, multi, group   int
}

// imbID names an IMB measurement as its title does: the mode, -multi
// and the group only where the run had them (a primary run's -1 was
// once written as "multi-1-group-1"). The ID is the anchor of the page
// and the PNG's file name.
func imbID(r *result.Record) string {
	id := fmt.Sprintf("%s-%s", r.Suite, r.Benchmark)
	if r.Mode != "" {
		id += "-" + r.Mode
	}
	id += fmt.Sprintf("-np%d", r.NProcs)
	if r.Multi >= 0 {
		id += fmt.Sprintf("-multi%d", r.Multi)
		if r.Group >= 0 {
			id += fmt.Sprintf("-group%d", r.Group)
		}
	}
	return id
}

// imbSeries makes the t_max, t_avg and t_min series of an IMB record.
func (g *grouper) imbSeries(i int, label string, r *result.Record) [3]*Series {
	id := imbID(r)
	title := fmt.Sprintf("%s, %d processes", r.Benchmark, r.NProcs)
	if r.Mode != "" {
		title += ", " + r.Mode
	}
	switch {
	case r.Multi >= 0 && r.Group >= 0:
		title += fmt.Sprintf(", -multi %d group %d", r.Multi, r.Group)
	case r.Multi >= 0:
		title += fmt.Sprintf(", -multi %d", r.Multi)
	}
	proto := Measurement{ID: anchor(id), Suite: r.Suite, Title: title, LogX: true,
		XLabel: "message length (bytes)", YLabel: "time (µs)",
		Note: "t_max: the slowest process's time per call, the time IMB's Mbytes/sec is computed from; t_avg and t_min dashed."}
	names := []string{"t_max", "t_avg", "t_min"}
	switch {
	case r.TOvrl > 0:
		// IMB-NBC's and IMB-MPI4's non-blocking rows (imb/nbc.go).
		names, proto.Aux = []string{"t_ovrl", "t_pure", "t_CPU"}, &overlapAux
		proto.Note = "t_ovrl: the slowest process's time of the call overlapped with CPU work; t_pure (the call alone) and t_CPU (the calibrated CPU work) dashed. Overlap = 100·(t_pure + t_CPU − t_ovrl) / min(t_pure, t_CPU), IMB's overlap[%], in a panel of its own."
	case r.MsgRate > 0:
		proto.Aux = &rateAux
	}
	var ss [3]*Series
	for k, name := range names {
		ss[k] = g.series(proto, i, k, label+" "+name)
	}
	return ss
}

// addBeff plots b per pattern over L: the maximum over methods and
// repetitions (what b_eff averages) and, dashed, each method's maximum
// over repetitions.
func (g *grouper) addBeff(i int, label string, r *result.Record) {
	id := fmt.Sprintf("beff-%s-np%d", r.Benchmark, r.NProcs)
	proto := Measurement{ID: anchor(id), Suite: result.SuiteBeff, LogX: true,
		Title:  fmt.Sprintf("pattern %s (%s), %d processes", r.Benchmark, r.Class, r.NProcs),
		XLabel: "message length L (bytes)", YLabel: "b (MB/s)",
		Note: "b = L·messages·looplength / t_max, MB = 10^6 bytes: the maximum over methods and repetitions; each method's maximum over repetitions dashed. Time: one execution of the pattern."}
	t := 0.0
	if r.Reps > 0 {
		t = r.TMax / float64(r.Reps)
	}
	p := Point{X: float64(r.Bytes), Y: r.BMBps, Bytes: r.Bytes, Time: t, MBps: r.BMBps}
	beffMax(g.series(proto, i, 0, label+" max"), p)
	beffMax(g.series(proto, i, 1, label+" "+r.Mode), p)
}

// beffMax keeps the larger b at each L.
func beffMax(s *Series, p Point) {
	for j := range s.Points {
		if s.Points[j].X == p.X {
			if p.Y > s.Points[j].Y {
				s.Points[j] = p
			}
			return
		}
	}
	s.Points = append(s.Points, p)
}

// addBeffIO plots the bandwidth of each pattern of a type and access
// over its chunk size; the type totals are not plotted (they have no
// chunk size) but stated in the header.
func (g *grouper) addBeffIO(i int, label string, r *result.Record) {
	if r.Benchmark == "total" {
		return
	}
	id := fmt.Sprintf("beffio-%s-%s-np%d", r.Class, r.Mode, r.NProcs)
	proto := Measurement{ID: anchor(id), Suite: result.SuiteBeffIO, LogX: true,
		Title:  fmt.Sprintf("%s, %s, %d processes", r.Class, r.Mode, r.NProcs),
		XLabel: "chunk size l (bytes)", YLabel: "MB/s", // gonum/plot pads the top by a long rotated label
		Note: "bytes moved by all processes / time of the pattern, MB = 10^6 bytes; one point per pattern."}
	s := g.series(proto, i, 0, label)
	s.rate = true
	s.add(Point{X: float64(r.Bytes), Y: r.IOMBps, Bytes: r.Bytes, Time: r.TMax, MBps: r.IOMBps}, r.Benchmark)
}

// addSKaMPI plots the trimmed mean (SKaMPI section 3.1: the average
// without the 25 % slowest and fastest) with its standard error and, as
// a band, the standard error the stopping rule allows: ε times the
// trimmed mean as measured, before the correction.
func (g *grouper) addSKaMPI(i int, label string, r *result.Record) {
	if r.Stats == nil {
		return
	}
	proto := skampiMeasurement(r)
	st := r.Stats
	s := g.series(proto, i, 0, label)
	s.Name = r.Benchmark
	g.addCase(s, float64(r.X), r)
	s.add(Point{X: float64(r.X), Y: st.Trimmed, Err: st.TrimmedStdErr,
		Band: r.Epsilon * (st.Trimmed + r.Correction), Bytes: r.Bytes, Time: st.Trimmed, MBps: perMicro(r.Bytes, st.Trimmed)}, "")
}

func skampiMeasurement(r *result.Record) Measurement {
	id := "skampi-" + r.Benchmark + "-" + r.Param
	title := r.Benchmark
	if r.Mode != "" {
		title += " (" + r.Mode + ")"
	}
	switch r.Param {
	case "procs":
		title += fmt.Sprintf(", %s over the number of processes, %s", r.Class, textout.Bytes(r.Bytes))
		id += fmt.Sprintf("-b%d", r.Bytes)
	case "bytes":
		title += fmt.Sprintf(", %s over the message length, %d processes", r.Class, r.NProcs)
		id += fmt.Sprintf("-np%d", r.NProcs)
	default:
		title += fmt.Sprintf(", %s, %d processes", r.Class, r.NProcs)
		id += fmt.Sprintf("-np%d-b%d", r.NProcs, r.Bytes)
	}
	xlabel := map[string]string{"bytes": "message length (bytes)", "procs": "processes",
		"workpieces": "workpieces"}[r.Param]
	if xlabel == "" {
		xlabel = "point"
	}
	return Measurement{ID: anchor(id), Suite: result.SuiteSkampi, Title: title, XLabel: xlabel,
		YLabel: "time (µs)", LogX: r.Param == "bytes" || r.Param == "workpieces",
		Note: fmt.Sprintf("trimmed mean (the middle 50 %%) with its standard error; shaded: the allowed standard error ε·mean (ε = %g).", r.Epsilon)}
}

// perMicro is bytes / µs, which is MB/s with MB = 10^6 bytes; 0 for no
// time.
func perMicro(bytes int, us float64) float64 {
	if !(us > 0) || math.IsInf(us, 0) {
		return 0
	}
	return float64(bytes) / us
}

// anchor makes an identity usable as an HTML id and a file name.
func anchor(id string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, id)
}
