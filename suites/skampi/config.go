package skampi

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"mpibench/suites/skampi/method"
)

// DefaultConfig is the configuration of a default run (default.ski): the
// sections 2-5 of the paper's appendix A, with ranges that finish in
// about a minute on two processes of one node.
//
//go:embed default.ski
var DefaultConfig string

// DefaultName is the file name that errors in DefaultConfig show.
const DefaultName = "default.ski"

// Config is a parsed configuration file.
type Config struct {
	Node, Network, User string // the run's identity (the paper's NODE, NETWORK, USER)
	Measurements        []Measurement
}

// Measurement is one line "measure ..." of the configuration, with the
// defaults of the file filled in.
type Measurement struct {
	Name    string  `json:"name"`
	Pattern string  `json:"pattern"`
	Op      string  `json:"op"` // as in ops
	Param   string  `json:"param"`
	Lo      int     `json:"lo"` // range of the parameter
	Hi      int     `json:"hi"` // 0 for "P": all processes
	Len     int     `json:"len"`
	Procs   int     `json:"procs"` // 0: all processes
	Work    int     `json:"work"`
	Step    string  `json:"step"` // linear or doubling
	Gamma   float64 `json:"gamma"`
	Budget  int     `json:"budget"`
	Epsilon float64 `json:"epsilon"`
	MinReps int     `json:"minreps"`
	MaxReps int     `json:"maxreps"`
	// TimeLimit bounds the timed seconds of one point (method.Adaptive's
	// TimeLimit); 0 is no bound.
	TimeLimit float64 `json:"timelimit"`
	File      string  `json:"file"`
	Line      int     `json:"line"`

	sync Sync     // the run's -sync, set by Driver.run
	win  *winInfo // the window figures of the latest point measured by at
}

// ConfigError is a bad configuration: it names the file and line.
type ConfigError struct {
	File string
	Line int
	Msg  string
}

func (e *ConfigError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Bounds of the numbers of a configuration. Each sizes an allocation or a
// loop of the run, so a value beyond it is refused by ParseConfig with the
// file and line, before anything is allocated, rather than ending the run
// out of memory or in an integer overflow.
const (
	// MaxReps bounds minreps and maxreps: every point keeps one time per
	// repetition (8 bytes each, 80 MB at the bound), allocated for
	// maxreps up front.
	MaxReps = 10_000_000
	// MaxBudget bounds budget, the points of a length sweep.
	MaxBudget = 1_000_000
	// MaxWork bounds work= and the range of a sweep over workpieces: the
	// master sends (processes − 1)·work pieces per repetition.
	MaxWork = 1_000_000
	// MaxSize bounds lengths (len, len=, ranges over bytes): below 2 GiB,
	// the largest MPI count of bytes.
	MaxSize = math.MaxInt32
)

// defaults holds the file-wide settings a measurement inherits.
type defaults struct {
	epsilon          float64
	minReps, maxReps int
	timeLimit        float64
	gamma            float64
	budget           int
	len              int
}

// LoadConfig reads a configuration file; "" is DefaultConfig.
func LoadConfig(path string) (*Config, error) {
	if path == "" {
		return ParseConfig(strings.NewReader(DefaultConfig), DefaultName)
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is in the message already
		}
		return nil, &ConfigError{File: path, Msg: err.Error()}
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	return ParseConfig(f, path)
}

// ParseConfig reads a configuration; name is the file name for errors.
// Settings apply to the measurements that follow them.
func ParseConfig(r io.Reader, name string) (*Config, error) {
	c := &Config{}
	d := defaults{epsilon: method.DefaultEpsilon, minReps: method.DefaultMinReps,
		maxReps: method.DefaultMaxReps, timeLimit: method.DefaultTimeLimit, gamma: 2, len: 256}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fail := func(format string, a ...any) error {
			return &ConfigError{File: name, Line: line, Msg: fmt.Sprintf(format, a...)}
		}
		key, rest, _ := strings.Cut(text, " ")
		rest = strings.TrimSpace(rest)
		var err error
		switch key = strings.ToLower(key); key {
		case "node", "network", "user":
			err = c.identity(key, rest)
		case "measure":
			var m Measurement
			if m, err = parseMeasure(rest, d); err == nil {
				m.File, m.Line = name, line
				err = c.add(m)
			}
		default:
			err = d.set(key, rest)
		}
		if err != nil {
			return nil, fail("%v", err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ConfigError{File: name, Msg: err.Error()}
	}
	if len(c.Measurements) == 0 {
		return nil, &ConfigError{File: name, Msg: "no measurements (want lines \"measure NAME PATTERN OPERATION PARAM ...\")"}
	}
	return c, nil
}

func (c *Config) identity(key, v string) error {
	v = strings.Trim(v, `"`)
	switch key {
	case "node":
		c.Node = v
	case "network":
		c.Network = v
	default:
		c.User = v
	}
	return nil
}

func (c *Config) add(m Measurement) error {
	for _, o := range c.Measurements {
		if strings.EqualFold(o.Name, m.Name) {
			return fmt.Errorf("measurement %q defined twice (first at line %d)", m.Name, o.Line)
		}
	}
	c.Measurements = append(c.Measurements, m)
	return nil
}

// set reads a file-wide setting.
func (d *defaults) set(key, v string) error {
	var err error
	switch key {
	case "epsilon":
		d.epsilon, err = parseEpsilon(v)
	case "minreps":
		d.minReps, err = parseInt(v, 1, MaxReps)
	case "maxreps":
		d.maxReps, err = parseInt(v, 1, MaxReps)
	case "timelimit":
		d.timeLimit, err = parseTimeLimit(v)
	case "gamma":
		d.gamma, err = parseGamma(v)
	case "budget":
		d.budget, err = parseInt(v, 0, MaxBudget)
	case "len":
		d.len, err = parseSize(v)
	default:
		return fmt.Errorf("unknown setting %q (want node, network, user, epsilon, minreps, maxreps, timelimit, gamma, budget, len or measure)", key)
	}
	if err != nil {
		return fmt.Errorf("%s: %v", key, err)
	}
	return nil
}

// parseMeasure reads "NAME PATTERN OPERATION PARAM [LO..HI] [key=value ...]".
func parseMeasure(s string, d defaults) (Measurement, error) {
	f := strings.Fields(s)
	if len(f) < 4 {
		return Measurement{}, fmt.Errorf("measure %q: want NAME PATTERN OPERATION PARAM [LO..HI] [key=value ...]", s)
	}
	m := Measurement{Name: f[0], Pattern: strings.ToLower(f[1]), Param: strings.ToLower(f[3]), Len: d.len, Work: 1,
		Step: "linear", Gamma: d.gamma, Budget: d.budget, Epsilon: d.epsilon, MinReps: d.minReps, MaxReps: d.maxReps,
		TimeLimit: d.timeLimit}
	if _, ok := ops[m.Pattern]; !ok {
		return m, fmt.Errorf("pattern %q: want pingpong, collective, master-worker or simple", f[1])
	}
	op, ok := lookupOp(m.Pattern, f[2])
	if !ok {
		return m, fmt.Errorf("operation %q of %s: want one of %s", f[2], m.Pattern, opNames(m.Pattern))
	}
	m.Op = op.Name
	if !slices.Contains(params[m.Pattern], m.Param) {
		return m, fmt.Errorf("parameter %q: %s varies over %s", f[3], m.Pattern, strings.Join(params[m.Pattern], ", "))
	}
	rest := f[4:]
	if m.Param != OverNone {
		if len(rest) == 0 || strings.Contains(rest[0], "=") {
			return m, fmt.Errorf("%s over %s needs a range LO..HI", m.Name, m.Param)
		}
		if err := m.parseRange(rest[0]); err != nil {
			return m, err
		}
		rest = rest[1:]
	}
	for _, kv := range rest {
		if err := m.option(kv); err != nil {
			return m, err
		}
	}
	return m, m.check()
}

// parseRange reads LO..HI: sizes for bytes, counts for the others; HI may
// be P (all processes) over procs.
func (m *Measurement) parseRange(s string) error {
	lo, hi, ok := strings.Cut(s, "..")
	if !ok {
		return fmt.Errorf("range %q: want LO..HI", s)
	}
	var err error
	if m.Lo, err = parseSize(lo); err != nil {
		return fmt.Errorf("range %q: %v", s, err)
	}
	allProcs := m.Param == OverProcs && strings.EqualFold(hi, "P")
	if allProcs {
		m.Hi = 0
	} else if m.Hi, err = parseSize(hi); err != nil {
		return fmt.Errorf("range %q: %v", s, err)
	}
	min := 1
	if m.Pattern == MasterWorker && m.Param == OverProcs {
		min = 2 // a master and at least one worker
	}
	if m.Lo < min || (!allProcs && m.Hi < m.Lo) {
		return fmt.Errorf("range %q: want %d ≤ LO ≤ HI", s, min)
	}
	if m.Param == OverWorkpieces && m.Hi > MaxWork {
		return fmt.Errorf("range %q: want at most %d workpieces", s, MaxWork)
	}
	return nil
}

// option reads one key=value of a measure line.
func (m *Measurement) option(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("option %q: want key=value", kv)
	}
	var err error
	switch strings.ToLower(k) {
	case "len":
		m.Len, err = parseSize(v)
	case "procs":
		if strings.EqualFold(v, "P") {
			m.Procs = 0
		} else {
			m.Procs, err = parseInt(v, 1, math.MaxInt32)
		}
	case "work":
		m.Work, err = parseInt(v, 1, MaxWork)
	case "step":
		m.Step = strings.ToLower(v)
		if m.Step != "linear" && m.Step != "doubling" && m.Step != "scale" {
			err = fmt.Errorf("want linear, doubling or scale")
		}
	case "gamma":
		m.Gamma, err = parseGamma(v)
	case "budget":
		m.Budget, err = parseInt(v, 0, MaxBudget)
	case "epsilon":
		m.Epsilon, err = parseEpsilon(v)
	case "minreps":
		m.MinReps, err = parseInt(v, 1, MaxReps)
	case "maxreps":
		m.MaxReps, err = parseInt(v, 1, MaxReps)
	case "timelimit":
		m.TimeLimit, err = parseTimeLimit(v)
	default:
		return fmt.Errorf("option %q: want len, procs, work, step, gamma, budget, epsilon, minreps, maxreps or timelimit", k)
	}
	if err != nil {
		return fmt.Errorf("option %s=%q: %v", k, v, err)
	}
	return nil
}

// check catches what the single fields cannot: bounds against each other,
// options the pattern ignores.
func (m *Measurement) check() error {
	switch {
	case m.MaxReps < m.MinReps:
		return fmt.Errorf("%s: maxreps %d below minreps %d", m.Name, m.MaxReps, m.MinReps)
	case m.Pattern == MasterWorker && m.Procs == 1:
		return fmt.Errorf("%s: procs=1: master-worker needs a master and a worker", m.Name)
	case m.Pattern == PingPong && m.Procs != 0:
		return fmt.Errorf("%s: procs=%d: ping-pong always runs on 2 processes", m.Name, m.Procs)
	case m.Pattern != MasterWorker && m.Work != 1:
		return fmt.Errorf("%s: work=%d: only master-worker has workpieces", m.Name, m.Work)
	}
	if m.Param != OverBytes {
		return nil
	}
	// method.Refine refuses such a grid whatever the budget, but only
	// when the run gets there.
	if math.Log(float64(m.Hi)/float64(m.Lo))/math.Log(m.Gamma) > maxGridSteps {
		return fmt.Errorf("%s: gamma %g is so close to 1 that the grid %d..%d would take over %d steps", m.Name, m.Gamma, m.Lo, m.Hi, maxGridSteps)
	}
	if m.Budget == 0 {
		return nil
	}
	if n := len(method.Grid(m.Lo, m.Hi, m.Gamma)); m.Budget < n {
		return fmt.Errorf("%s: budget %d below the %d lengths of the grid %d..%d (gamma %g)", m.Name, m.Budget, n, m.Lo, m.Hi, m.Gamma)
	}
	return nil
}

// maxGridSteps is the bound method.Refine puts on the steps of
// method.Grid: a sweep it would refuse to run is refused here before the
// budget check calls Grid, which would take that long.
const maxGridSteps = 1 << 20

// parseSize reads a byte count or count: digits with an optional K, M or
// G (binary: 64K = 65536).
func parseSize(s string) (int, error) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"), strings.HasSuffix(s, "k"):
		mult = 1 << 10
	case strings.HasSuffix(s, "M"):
		mult = 1 << 20
	case strings.HasSuffix(s, "G"):
		mult = 1 << 30
	}
	digits := s
	if mult > 1 {
		digits = s[:len(s)-1]
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 || n > MaxSize/mult {
		return 0, fmt.Errorf("size %q: want a number ≥ 0 with an optional K, M or G, below 2 GiB", s)
	}
	return n * mult, nil
}

// parseInt reads an integer in lo..hi.
func parseInt(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q: want an integer from %d to %d", s, lo, hi)
	}
	return n, nil
}

func parseEpsilon(s string) (float64, error) {
	e, err := strconv.ParseFloat(s, 64)
	if err != nil || !(e > 0 && e < 1) {
		return 0, fmt.Errorf("%q: want a number in (0, 1)", s)
	}
	return e, nil
}

// MaxTimeLimit bounds timelimit: a day per point.
const MaxTimeLimit = 86400

// parseTimeLimit reads seconds of timed samples per point, 0 for none.
func parseTimeLimit(s string) (float64, error) {
	t, err := strconv.ParseFloat(s, 64)
	if err != nil || !(t >= 0 && t <= MaxTimeLimit) {
		return 0, fmt.Errorf("%q: want seconds from 0 (no limit) to %d", s, MaxTimeLimit)
	}
	return t, nil
}

func parseGamma(s string) (float64, error) {
	g, err := strconv.ParseFloat(s, 64)
	if err != nil || !(g > 1 && g <= 16) {
		return 0, fmt.Errorf("%q: want a factor in (1, 16]", s)
	}
	return g, nil
}

// Check verifies the configuration against a job of n processes; the
// error names the line of the measurement that cannot run.
func (c *Config) Check(n int) error {
	for _, m := range c.Measurements {
		fail := func(format string, a ...any) error {
			return &ConfigError{File: m.File, Line: m.Line, Msg: m.Name + ": " + fmt.Sprintf(format, a...)}
		}
		switch {
		case (m.Pattern == PingPong || m.Pattern == MasterWorker) && n < 2:
			return fail("%s needs at least 2 processes (the job has %d)", m.Pattern, n)
		case m.Procs > n:
			return fail("procs=%d: the job has %d processes", m.Procs, n)
		case m.Param == OverProcs && m.Lo > n:
			return fail("processes from %d: the job has %d", m.Lo, n)
		case m.Pattern == MasterWorker && int64(m.maxProcs(n)-1)*int64(m.maxWork()) > math.MaxInt32:
			// The C kernel counts the pieces of a repetition in an int.
			return fail("%d workers with %d workpieces each: over %d pieces per repetition",
				m.maxProcs(n)-1, m.maxWork(), math.MaxInt32)
		case m.bsend() && (int64(max(m.maxLength(), 1))+bsendSlack)*int64(m.maxProcs(n)) > math.MaxInt32:
			// MPI_Buffer_attach takes the size as an int.
			return fail("the MPI_Bsend buffer for %d bytes to %d processes is over 2 GiB, the most MPI_Buffer_attach takes",
				m.maxLength(), m.maxProcs(n))
		}
	}
	return nil
}

// bsendSlack bounds MPI_BSEND_OVERHEAD, the bytes MPI adds to each
// message in an attached buffer (about 100 in Open MPI and MPICH).
const bsendSlack = 1024

// bsend tells whether m attaches a buffer for MPI_Bsend.
func (m *Measurement) bsend() bool {
	return strings.EqualFold(m.Op, "Bsend_Recv") || strings.EqualFold(m.Op, "Bsend")
}

// maxWork is the most workpieces per worker of m.
func (m *Measurement) maxWork() int {
	if m.Param == OverWorkpieces {
		return m.Hi
	}
	return m.Work
}

// SetEpsilon overrides ε of every measurement (the -epsilon flag).
func (c *Config) SetEpsilon(e float64) {
	for i := range c.Measurements {
		c.Measurements[i].Epsilon = e
	}
}

// Find returns the measurement of that name, or nil.
func (c *Config) Find(name string) *Measurement {
	for i := range c.Measurements {
		if c.Measurements[i].Name == name {
			return &c.Measurements[i]
		}
	}
	return nil
}

// Points lists the values of a sweep over processes or workpieces on a
// job of n processes (HI above n, or P, is n for processes).
func (m *Measurement) Points(n int) []int {
	hi := m.Hi
	if m.Param == OverProcs && (hi == 0 || hi > n) {
		hi = n
	}
	switch m.Step {
	case "doubling":
		return method.ProcsDoubling(m.Lo, hi)
	case "scale":
		return method.ProcsScale(m.Lo, hi)
	}
	return method.ProcsLinear(m.Lo, hi)
}

// Mode is the MPI operation of the measurement as Record.Mode shows it.
func (m *Measurement) Mode() string {
	o, _ := lookupOp(m.Pattern, m.Op)
	return o.Mode
}
