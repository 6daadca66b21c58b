package imb

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"mpibench/internal/cli"
	"mpibench/run/diskcheck"
)

// Options are the command-line settings of section 5.1.2, as typed.
type Options struct {
	Benchmarks []string  // positional names, in the order given
	NPMin      int       // -npmin; 0 when not given
	Multi      int       // -multi outflag; -1 when not given (primary mode)
	Input      string    // -input selection file
	MsgLen     string    // -msglen lengths file
	MapP, MapQ int       // -map PxQ; 0 when not given
	Check      bool      // -check: results checking (section 7.2)
	JSON       string    // -json records file
	IODir      string    // -iodir: directory of the IMB-IO files
	Disk       int64     // -disk: most bytes of IMB-IO files at once; 0 when not given
	Time       float64   // -time: seconds per sample; NoTimeLimit for off; 0 when not given
	Window     int       // -window_size: Uniband and Biband; 0 when not given
	Help       bool      // -h, -help
	F          Flags2021 // IMB 2021's flags (flags2021.go)
	List       bool      // -list: print the benchmark list and stop (imb2021.go)
	Dropped    []string  // unknown flags ignored under an Intel program name (DropIn)
}

// UsageError is a bad command line or input file: the run stops before any
// measurement, with exit code 2 on every rank.
type UsageError = cli.UsageError

func usagef(format string, a ...any) error { return cli.Usagef(format, a...) }

// ParseArgs parses the arguments after the subcommand. Flags and benchmark
// names may come in any order, as in IMB; flags take one dash or two.
func ParseArgs(args []string) (Options, error) {
	o := Options{Multi: -1}
	fs := cli.NewFlags("imb")
	// The values report their errors as IMB's parser did ("-npmin "0":
	// want ..."): own keeps that error, which the flag package's message
	// replaces.
	var own error
	set := func(name string) func(string) error {
		return func(v string) error {
			own = o.set(name, v)
			return own
		}
	}
	for _, name := range []string{"npmin", "multi", "input", "msglen", "map", "iodir", "disk", "time", "window_size"} {
		fs.Func(name, "", set(name))
	}
	for _, name := range flagNames2021 {
		fs.Func(name, "", func(v string) error {
			own = o.F.set2021(name, v)
			return own
		})
	}
	fs.Var(cli.Switch{On: &o.Check}, "check", "")
	fs.Var(cli.Switch{On: &o.List}, "list", "")
	cli.Results(fs, &o.JSON)
	if DropIn {
		args, o.Dropped = cli.DropUnknown(fs, args)
	}
	names, err := cli.ParseMixed(fs, args, &o.Help)
	if len(names) > 0 {
		o.Benchmarks = names
	}
	if own != nil {
		return o, own
	}
	return o, err
}

func (o *Options) set(name, val string) error {
	switch name {
	case "npmin":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 {
			return usagef("-npmin %q: want an integer >= 1", val)
		}
		o.NPMin = n
	case "multi":
		if val != "0" && val != "1" {
			return usagef("-multi %q: the output flag must be 0 (worst group) or 1 (every group)", val)
		}
		o.Multi = int(val[0] - '0')
	case "input":
		o.Input = val
	case "msglen":
		o.MsgLen = val
	case "iodir":
		if val == "" {
			return usagef("-iodir: empty directory name")
		}
		o.IODir = val
	case "disk":
		n, err := diskcheck.ParseSize(val)
		if err != nil {
			return usagef("-disk %v", err)
		}
		o.Disk = n
	case "time":
		s, err := parseTimeLimit(val)
		if err != nil {
			return err
		}
		o.Time = s
	case "window_size":
		return o.setWindow(val)
	case "map":
		p, q, err := parseMap(val)
		if err != nil {
			return err
		}
		o.MapP, o.MapQ = p, q
	}
	return nil
}

func parseMap(s string) (int, int, error) {
	ps, qs, ok := strings.Cut(strings.ToLower(s), "x")
	p, err1 := strconv.Atoi(ps)
	q, err2 := strconv.Atoi(qs)
	if !ok || err1 != nil || err2 != nil || p < 1 || q < 1 {
		return 0, 0, usagef("-map %q: want PxQ with positive integers, e.g. -map 2x4", s)
	}
	return p, q, nil
}

// Config is what every rank runs: Options resolved against the files and
// the job size on rank 0, then broadcast.
type Config struct {
	Suite      string    `json:"suite"`                // mpi1, ext, io
	IODir      string    `json:"iodir,omitempty"`      // IMB-IO file directory
	Disk       int64     `json:"disk_bytes,omitempty"` // IMB-IO -disk; 0: min(16 GiB, free/2)
	Benchmarks []string  `json:"benchmarks"`           // canonical names, in run order
	NPMin      int       `json:"npmin"`
	Multi      int       `json:"multi"`
	Lengths    []int     `json:"lengths,omitempty"` // user lengths; nil for the defaults
	MapP       int       `json:"map_p"`
	MapQ       int       `json:"map_q"`
	Check      bool      `json:"check"`
	TimeLimit  float64   `json:"time_limit_s"` // -time: seconds per sample; NoTimeLimit: IMB 3.0's counts
	JSON       string    `json:"json,omitempty"`
	Args       []string  `json:"args"`
	Window     int       `json:"window_size,omitempty"` // -window_size; 0: IMB 2021's default
	F          Flags2021 `json:"imb2021_flags"`         // IMB 2021's flags
	List       bool      `json:"list,omitempty"`        // -list: print the list, measure nothing
	// Invalid are the arguments ignored under an Intel program name
	// (DropIn), each printed as IMB 2021 does before the header.
	Invalid []string `json:"invalid,omitempty"`

	// avail is the node's available memory per process in bytes, the
	// same on every rank (memcheck.Available; set by measure): lengths
	// whose buffers need more are left out (caseBounds). 0: no bound.
	avail int64
}

// Resolve checks the options against the job size and reads the -input and
// -msglen files. It runs on rank 0 only.
func Resolve(s *Suite, o Options, size int, args []string) (*Config, error) {
	c := &Config{Suite: s.Name, NPMin: s.NPMin, Multi: o.Multi, MapP: o.MapP, MapQ: o.MapQ, Check: o.Check,
		JSON: o.JSON, Args: args, IODir: o.IODir, Disk: o.Disk, TimeLimit: o.Time, Window: o.Window, F: o.F,
		List: o.List}
	if err := o.F.checkSuite(s, o.List); err != nil {
		return nil, err
	}
	if err := o.F.check(s); err != nil {
		return nil, err
	}
	c.F.Sync = o.F.syncFor(s)
	if err := windowConflicts(o); err != nil {
		return nil, err
	}
	if c.TimeLimit == 0 {
		c.TimeLimit = DefaultTimeLimit[s.Name]
	}
	if p := o.F.IterPolicy; p == policyOff || p == policyMultipleNP {
		c.TimeLimit = NoTimeLimit // IMB 2021.11 bounds no sample under these policies
	}
	if o.IODir != "" && s != IOSuite {
		return nil, usagef("-iodir is a flag of mpibench io only")
	}
	if o.Window != 0 && s != MPI1Suite {
		return nil, usagef("-window_size is a flag of mpibench mpi1 only (Uniband, Biband)")
	}
	if o.Disk != 0 && s != IOSuite {
		return nil, usagef("-disk is a flag of mpibench io only")
	}
	if s == IOSuite && c.IODir == "" {
		c.IODir = "."
	}
	if o.NPMin > 0 {
		c.NPMin = o.NPMin
	}
	if o.MapP > 0 && o.MapP*o.MapQ != size {
		return nil, usagef("-map %dx%d numbers %d processes, but the job has %d", o.MapP, o.MapQ, o.MapP*o.MapQ, size)
	}
	names := o.Benchmarks
	if o.Input != "" {
		more, err := readSelection(s, o.Input)
		if err != nil {
			return nil, err
		}
		names = append(names, more...)
	}
	c.Invalid = o.Dropped
	if DropIn {
		// IMB 2021 ignores what it cannot run, with a line each
		// (dropin.go); nothing valid left is its default list.
		var bad, badIncl []string
		given := len(names) > 0
		names, bad = dropUnknownNames(s, names)
		c.F.Include, badIncl = dropUnknownNames(s, c.F.Include)
		c.F.Exclude, _ = dropUnknownNames(s, c.F.Exclude)
		c.Invalid = append(append(c.Invalid, bad...), badIncl...)
		o.F.Include, o.F.Exclude = c.F.Include, c.F.Exclude
		if given && len(names) == 0 {
			// Names were given, none valid: IMB runs the -include
			// names alone, or its default list without them.
			names = c.F.Include
		}
	}
	var err error
	if c.Benchmarks, err = o.F.selectNames(s, names); err != nil {
		return nil, err
	}
	if o.MsgLen != "" {
		// IMB 2021's suites, mpi1 and ext under -imb 2021 and io under
		// the name IMB-IO read k and M (IO_suite.cpp has the same reader).
		imb2021 := o.F.IMB == imb2021 || s == NBCSuite || s == MPI4Suite || s == RMASuite || DropIn
		if c.Lengths, err = readLengths(o.MsgLen, imb2021); err != nil {
			return nil, err
		}
	}
	if err := checkBig(s, c); err != nil {
		return nil, err
	}
	return c, checkRunnable(s, c, size)
}

// canonical maps names to table spelling, drops repeats, and defaults to
// every benchmark.
func canonical(s *Suite, names []string, where string) ([]string, error) {
	if len(names) == 0 {
		return s.DefaultNames(), nil
	}
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		b, ok := s.Lookup(n)
		if !ok {
			return nil, unknown(s, n, where)
		}
		if !seen[b.Name] {
			seen[b.Name] = true
			out = append(out, b.Name)
		}
	}
	return out, nil
}

func unknown(s *Suite, name, where string) error {
	return usagef("%s: unknown %s benchmark %q; valid names (case-insensitive): %s",
		where, s.Name, name, strings.Join(s.Names(), ", "))
}

// checkRunnable refuses a run where no selected benchmark can run, such as
// only single transfers on one process; otherwise invalid ones are skipped
// with IMB's notice.
func checkRunnable(s *Suite, c *Config, size int) error {
	if size >= s.SingleQ {
		return nil
	}
	for _, n := range c.Benchmarks {
		if b, _ := s.Lookup(n); b.Class != SingleTransfer {
			return nil
		}
	}
	return usagef("%s needs %d processes (single transfer), but the job has %d; run with mpirun -np %d or more",
		strings.Join(c.Benchmarks, ", "), s.SingleQ, size, s.SingleQ)
}

// openInput opens an -input or -msglen file.
func openInput(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("cannot read %s: %v", path, errors.Unwrap(err))
	}
	return f, nil
}

// scanLines calls fn for every line of r that is not blank or a # comment;
// path names r in errors.
func scanLines(r io.Reader, path string, fn func(line int, text string) error) error {
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if err := fn(n, t); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return usagef("%s:%d: %v", path, n+1, err)
	}
	return nil
}

// readSelection reads an -input file: one benchmark name per line,
// # comments (section 5.1.2.4).
func readSelection(s *Suite, path string) ([]string, error) {
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	return parseSelection(s, f, path)
}

// parseSelection reads the lines of an -input file from r.
func parseSelection(s *Suite, r io.Reader, path string) ([]string, error) {
	var names []string
	err := scanLines(r, path, func(line int, t string) error {
		if DropIn {
			// IMB 2021 reads each line's first word (imb.cpp,
			// sscanf "%31s"); Resolve reports those it lacks.
			names = append(names, strings.Fields(t)[0])
			return nil
		}
		if f := strings.Fields(t); len(f) != 1 {
			return usagef("%s:%d: want exactly one benchmark name, got %q", path, line, t)
		}
		if _, ok := s.Lookup(t); !ok {
			return unknown(s, t, fmt.Sprintf("%s:%d", path, line))
		}
		names = append(names, t)
		return nil
	})
	if err == nil && len(names) == 0 && !DropIn {
		err = usagef("%s: no benchmark selected (every line is blank or a comment)", path)
	}
	return names, err
}

// readLengths reads a -msglen file: one non-negative length per line
// (section 5.1.2.5); blank lines and # comments are allowed.
func readLengths(path string, imb2021 bool) ([]int, error) {
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	return parseLengthsAs(f, path, imb2021)
}

// parseLengths reads the lines of a -msglen file from r.
func parseLengths(r io.Reader, path string) ([]int, error) {
	return parseLengthsAs(r, path, false)
}

// parseLengthsAs is parseLengths, with IMB 2021.11's k and M suffixes
// when imb2021 (lengthLine2021).
func parseLengthsAs(r io.Reader, path string, imb2021 bool) ([]int, error) {
	var lens []int
	want := "want a non-negative integer"
	if imb2021 {
		want = "want a non-negative integer, optionally followed by k or M, as IMB 2021 reads it"
	}
	err := scanLines(r, path, func(line int, t string) error {
		var x int64
		var err error
		if imb2021 {
			x, err = lengthLine2021(t)
		} else {
			x, err = strconv.ParseInt(t, 10, 64)
		}
		switch {
		case errors.Is(err, strconv.ErrRange):
			return usagef("%s:%d: message length %s overflows a 64-bit integer", path, line, t)
		case err != nil:
			return usagef("%s:%d: %q is not a message length (%s)", path, line, t, want)
		case x < 0:
			return usagef("%s:%d: negative message length %d", path, line, x)
		}
		lens = append(lens, int(min(x, 1<<40)))
		return nil
	})
	if err == nil && len(lens) == 0 {
		err = usagef("%s: no message lengths (every line is blank or a comment)", path)
	}
	return lens, err
}
