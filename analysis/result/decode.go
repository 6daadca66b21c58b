package result

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"mpibench/analysis/stats"
)

// decodeRecord decodes one JSON line into r. encoding/json decodes about
// 70 MB/s per core, which makes a million-record file a 12-second read;
// most lines are plain (known keys, no escapes, no nulls), and those the
// fast parser below takes directly. Anything else it refuses, and the
// line goes to encoding/json, whose result and error are the reference
// (TestDecodeSame and FuzzDecode hold the two to the same records).
func decodeRecord(b []byte, r, prev *Record) error {
	if prev == nil {
		prev = &Record{}
	}
	p := parser{b: b, prev: prev}
	if p.record(r) {
		return nil
	}
	*r = Record{}
	return json.Unmarshal(b, r)
}

// parser reads the plain subset of JSON; every method returns false on
// what it does not take, leaving the line to encoding/json.
type parser struct {
	b    []byte
	i    int
	prev *Record // the line before, whose strings this one may share

	scratch []int
	// The groups of figures (figureGroup) the line gave flat and as
	// objects: a line with both goes to encoding/json, whose order of
	// the two is the reference.
	flat, objects uint8
}

func (p *parser) record(r *Record) bool {
	if !p.object(func(k []byte) bool { return p.recordField(k, r) }) {
		return false
	}
	p.ws()
	return p.i == len(p.b) && p.flat&p.objects == 0
}

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// next skips white space and takes byte c.
func (p *parser) next(c byte) bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// peek skips white space and says whether byte c comes next.
func (p *parser) peek(c byte) bool {
	p.ws()
	return p.i < len(p.b) && p.b[p.i] == c
}

// object reads {"key": value, ...}, field reading each value. The key
// is matched exactly: encoding/json also takes other cases of a key,
// which the fields refuse.
func (p *parser) object(field func(key []byte) bool) bool {
	if !p.next('{') {
		return false
	}
	if p.next('}') {
		return true
	}
	for {
		k, ok := p.raw()
		if !ok || !p.next(':') {
			return false
		}
		p.ws()
		if !field(k) {
			return false
		}
		if p.next('}') {
			return true
		}
		if !p.next(',') {
			return false
		}
	}
}

// raw reads a string without escapes and with valid UTF-8, which is its
// own value.
func (p *parser) raw() ([]byte, bool) {
	if !p.next('"') {
		return nil, false
	}
	start, ascii := p.i, true
	for ; p.i < len(p.b); p.i++ {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			return s, ascii || utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false
}

// str reads a string, taking prev where it is the same: a run's context
// repeats on every line, and a string made once per line is most of
// what the reading of a million lines allocates.
func (p *parser) str(v *string, prev string) bool {
	b, ok := p.raw()
	if string(b) == prev {
		*v = prev
	} else {
		*v = string(b)
	}
	return ok
}

// number reads a number as JSON writes it (strconv takes more: hex,
// Inf, underscores).
func (p *parser) number() ([]byte, bool) {
	b, start := p.b, p.i
	digits := func() bool {
		n := p.i
		for p.i < len(b) && b[p.i] >= '0' && b[p.i] <= '9' {
			p.i++
		}
		return p.i > n
	}
	if p.i < len(b) && b[p.i] == '-' {
		p.i++
	}
	if p.i < len(b) && b[p.i] == '0' {
		p.i++
	} else if !digits() {
		return nil, false
	}
	if p.i < len(b) && b[p.i] == '.' {
		p.i++
		if !digits() {
			return nil, false
		}
	}
	if p.i < len(b) && (b[p.i] == 'e' || b[p.i] == 'E') {
		p.i++
		if p.i < len(b) && (b[p.i] == '+' || b[p.i] == '-') {
			p.i++
		}
		if !digits() {
			return nil, false
		}
	}
	return b[start:p.i], true
}

func (p *parser) float(v *float64) bool {
	s, ok := p.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(s), 64)
	*v = f
	return err == nil
}

func (p *parser) int64(v *int64) bool {
	s, ok := p.number()
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(string(s), 10, 64)
	*v = n
	return err == nil
}

func (p *parser) int(v *int) bool {
	var n int64
	ok := p.int64(&n)
	*v = int(n)
	return ok && int64(*v) == n
}

func (p *parser) uint64(v *uint64) bool {
	s, ok := p.number()
	if !ok {
		return false
	}
	n, err := strconv.ParseUint(string(s), 10, 64)
	*v = n
	return err == nil
}

func (p *parser) bool(v *bool) bool {
	for _, w := range []string{"true", "false"} {
		if len(p.b)-p.i >= len(w) && string(p.b[p.i:p.i+len(w)]) == w {
			p.i += len(w)
			*v = w == "true"
			return true
		}
	}
	return false
}

// array reads [v, ...], elem reading each value; an empty array is an
// empty slice, as encoding/json makes it, not a nil one.
func (p *parser) array(elem func() bool) bool {
	if !p.next('[') {
		return false
	}
	if p.next(']') {
		return true
	}
	for {
		p.ws()
		if !elem() {
			return false
		}
		if p.next(']') {
			return true
		}
		if !p.next(',') {
			return false
		}
	}
}

// ints reads into the parser's scratch and copies once: growing each
// small slice was most of the allocations of a read.
func (p *parser) ints(v *[]int) bool {
	p.scratch = p.scratch[:0]
	ok := p.array(func() bool {
		var n int
		ok := p.int(&n)
		p.scratch = append(p.scratch, n)
		return ok
	})
	*v = append(make([]int, 0, len(p.scratch)), p.scratch...)
	return ok
}

func (p *parser) strs(v *[]string, prev []string) bool {
	*v = make([]string, 0, len(prev))
	return p.array(func() bool {
		var s, old string
		if len(*v) < len(prev) {
			old = prev[len(*v)]
		}
		ok := p.str(&s, old)
		*v = append(*v, s)
		return ok
	})
}

func (p *parser) floats(v *[]float64) bool {
	*v = []float64{}
	return p.array(func() bool {
		var f float64
		ok := p.float(&f)
		*v = append(*v, f)
		return ok
	})
}

func (p *parser) groups(v *[][]int, prev [][]int) bool {
	*v = make([][]int, 0, len(prev))
	return p.array(func() bool {
		var g []int
		ok := p.ints(&g)
		*v = append(*v, g)
		return ok
	})
}

// relErr takes a number or null.
func (p *parser) relErr(v **float64) bool {
	if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		*v = nil
		return true
	}
	var f float64
	ok := p.float(&f)
	*v = &f
	return ok
}

// summary reads the object into *v, made if nil: encoding/json decodes
// a repeated key into what the first one made.
func (p *parser) summary(v **stats.Summary) bool {
	if *v == nil {
		*v = &stats.Summary{}
	}
	s := *v
	return p.object(func(k []byte) bool {
		switch string(k) {
		case "n":
			return p.int(&s.N)
		case "mean":
			return p.float(&s.Mean)
		case "trimmed":
			return p.float(&s.Trimmed)
		case "stderr":
			return p.float(&s.StdErr)
		case "trimmed_stderr":
			return p.float(&s.TrimmedStdErr)
		case "min":
			return p.float(&s.Min)
		case "median":
			return p.float(&s.Median)
		case "max":
			return p.float(&s.Max)
		}
		return false
	})
}

func (p *parser) context(c *Context) bool {
	return p.object(func(k []byte) bool {
		if v := contextStrings(c, k); v != nil {
			return p.str(v, *contextStrings(&p.prev.Context, k))
		}
		switch string(k) {
		case "hosts":
			return p.strs(&c.Hosts, p.prev.Context.Hosts)
		case "args":
			return p.strs(&c.Args, p.prev.Context.Args)
		case "procs":
			return p.int(&c.Procs)
		}
		return false
	})
}

func contextStrings(c *Context, k []byte) *string {
	switch string(k) {
	case "tool":
		return &c.Tool
	case "start":
		return &c.Start
	case "host":
		return &c.Host
	case "mpi":
		return &c.MPI
	case "mpi_version":
		return &c.MPIVersion
	case "mpi_library":
		return &c.MPILibrary
	case "thread_level":
		return &c.ThreadLevel
	case "machine":
		return &c.Machine
	case "system":
		return &c.System
	case "release":
		return &c.Release
	case "version":
		return &c.Version
	case "node":
		return &c.Node
	case "network":
		return &c.Network
	case "user":
		return &c.User
	}
	return nil
}

// The groups of figures that records version 3 puts in objects.
const (
	groupNone = iota
	groupOverlap
	groupBeff
	groupBeffIO
	groupSkampi
	groupViolation
	groupStarts
)

// objectGroup is the group whose object key k is; groupNone for any
// other key.
func objectGroup(k []byte) int {
	switch string(k) {
	case "overlap":
		return groupOverlap
	case "b_eff":
		return groupBeff
	case "b_eff_io":
		return groupBeffIO
	case "skampi":
		return groupSkampi
	case "violation":
		return groupViolation
	case "starts":
		return groupStarts
	}
	return groupNone
}

// figureGroup is the group of figures field key k belongs to;
// groupNone for the record's own fields.
func figureGroup(k []byte) int {
	switch string(k) {
	case "t_ovrl_us", "t_pure_us", "t_cpu_us", "overlap_pct", "cpu_mflops":
		return groupOverlap
	case "rep", "b_mbps", "seed", "tries", "beff":
		return groupBeff
	case "mem_bytes", "units", "pos", "io_bytes", "sched_s", "io_mbps", "beffio":
		return groupBeffIO
	case "param", "x", "epsilon", "reached", "rel_err", "correction_us", "stop", "min_reps", "max_reps", "tick_us":
		return groupSkampi
	case "guideline", "kind", "against", "from_bytes", "factor", "test", "tolerance", "p_value", "alpha":
		return groupViolation
	case "sync", "window_s", "clock_error_s", "valid_reps", "invalid_reps", "start_lag_s":
		return groupStarts
	}
	return groupNone
}

// recordField reads the value of key k: a field of the record, a group
// of figures' object (version 3) or one of its fields given flat
// (versions 1 and 2).
func (p *parser) recordField(k []byte, r *Record) bool {
	if p.i < len(p.b) && p.b[p.i] == '{' {
		if g := objectGroup(k); g != groupNone {
			p.objects |= 1 << g
			return p.object(func(k []byte) bool { return figureGroup(k) == g && p.field(k, r) })
		}
	}
	if g := figureGroup(k); g != groupNone {
		p.flat |= 1 << g
	}
	return p.field(k, r)
}

// field reads the value of key k; b_eff and b_eff_io summaries (a few
// records a run) go to encoding/json.
func (p *parser) field(k []byte, r *Record) bool {
	if v := recordStrings(r, k); v != nil {
		return p.str(v, *recordStrings(p.prev, k))
	}
	if v := recordInts(r, k); v != nil {
		return p.int(v)
	}
	if v := recordFloats(r, k); v != nil {
		return p.float(v)
	}
	switch string(k) {
	case "check":
		return p.bool(&r.Check)
	case "reached":
		return p.bool(&r.Reached)
	case "groups":
		return p.groups(&r.Groups, p.prev.Groups)
	case "map":
		return p.ints(&r.Map)
	case "samples_us":
		return p.floats(&r.Samples)
	case "pair_hosts":
		return p.strs(&r.PairHosts, p.prev.PairHosts)
	case "io_bytes":
		return p.int64(&r.IOBytes)
	case "need_bytes":
		return p.int64(&r.NeedBytes)
	case "limit_bytes":
		return p.int64(&r.LimitBytes)
	case "seed":
		return p.uint64(&r.Seed)
	case "rel_err":
		return p.relErr(&r.RelErr)
	case "invalid_reps":
		var v int
		r.InvalidReps = &v
		return p.int(&v)
	case "stats":
		return p.summary(&r.Stats)
	case "context":
		return p.context(&r.Context)
	case "osu":
		return p.osu(&r.OSU, p.prev.OSU)
	}
	return false
}

func recordStrings(r *Record, k []byte) *string {
	switch string(k) {
	case "suite":
		return &r.Suite
	case "benchmark":
		return &r.Benchmark
	case "class":
		return &r.Class
	case "mode":
		return &r.Mode
	case "case":
		return &r.Case
	case "count_mode":
		return &r.CountMode
	case "param":
		return &r.Param
	case "stop":
		return &r.Stop
	case "guideline":
		return &r.Guideline
	case "kind":
		return &r.Kind
	case "against":
		return &r.Against
	case "test":
		return &r.Test
	case "sync":
		return &r.Sync
	case "skipped":
		return &r.Skip
	case "cut":
		return &r.Cut
	}
	return nil
}

func recordInts(r *Record, k []byte) *int {
	switch string(k) {
	case "multi":
		return &r.Multi
	case "group":
		return &r.Group
	case "np":
		return &r.NProcs
	case "bytes":
		return &r.Bytes
	case "reps":
		return &r.Reps
	case "rep":
		return &r.Rep
	case "messages":
		return &r.Messages
	case "tries":
		return &r.Tries
	case "window":
		return &r.Window
	case "mem_bytes":
		return &r.MemBytes
	case "units":
		return &r.Units
	case "pos":
		return &r.Pos
	case "x":
		return &r.X
	case "min_reps":
		return &r.MinReps
	case "max_reps":
		return &r.MaxReps
	case "merged":
		return &r.Merged
	case "launch":
		return &r.Launch
	case "from_bytes":
		return &r.FromBytes
	case "factor":
		return &r.Factor
	case "valid_reps":
		return &r.ValidReps
	case "run":
		return &r.Run
	case "reps_asked":
		return &r.RepsAsked
	}
	return nil
}

func recordFloats(r *Record, k []byte) *float64 {
	switch string(k) {
	case "t_min_us":
		return &r.TMin
	case "t_max_us":
		return &r.TMax
	case "t_avg_us":
		return &r.TAvg
	case "mbytes_per_sec":
		return &r.MBps
	case "msg_rate":
		return &r.MsgRate
	case "defects":
		return &r.Defects
	case "t_ovrl_us":
		return &r.TOvrl
	case "t_pure_us":
		return &r.TPure
	case "t_cpu_us":
		return &r.TCPU
	case "overlap_pct":
		return &r.Overlap
	case "cpu_mflops":
		return &r.CPUMflops
	case "b_mbps":
		return &r.BMBps
	case "sched_s":
		return &r.SchedSec
	case "io_mbps":
		return &r.IOMBps
	case "epsilon":
		return &r.Epsilon
	case "correction_us":
		return &r.Correction
	case "time_limit_s":
		return &r.TimeLimit
	case "tick_us":
		return &r.Tick
	case "tolerance":
		return &r.Tolerance
	case "p_value":
		return &r.PValue
	case "alpha":
		return &r.Alpha
	case "window_s":
		return &r.WindowS
	case "clock_error_s":
		return &r.ClockErr
	case "start_lag_s":
		return &r.StartLag
	}
	return nil
}
