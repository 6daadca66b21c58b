package mt

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"mpibench/internal/cli"
)

// IMB-MT's defaults (MT_suite.cpp, declare_args).
const (
	DefaultWarmup      = 100
	DefaultRepeat      = 1000
	DefaultWindow      = 64
	DefaultMallocAlign = 64
)

// DefaultCounts is -count's default, in elements.
var DefaultCounts = []int{1, 2, 4, 8}

// Config is an mt run as every rank agreed on it.
type Config struct {
	Benchmarks  []string `json:"benchmarks"` // in run order
	Counts      []int    `json:"counts"`     // elements, in run order
	Stride      int      `json:"stride"`
	Warmup      int      `json:"warmup"`
	Repeat      int      `json:"repeat"`
	Window      int      `json:"window_size"`
	Barrier     string   `json:"barrier"` // on, off, special
	MallocAlign int      `json:"malloc_align"`
	MallocAlgo  string   `json:"malloc_algo"` // serial, continuous, parallel
	Check       bool     `json:"check"`
	NoHeader    bool     `json:"noheader"`
	Datatype    string   `json:"datatype"` // int, char
	// OMPThreads is the threads OpenMP would run on rank 0 (OMP_NUM_THREADS,
	// else the processors rank 0 may run on): the threads of a process
	// under -thread_level multiple.
	OMPThreads int    `json:"omp_threads"`
	JSON       string `json:"json,omitempty"`
	List       bool   `json:"list,omitempty"`
	// Options are IMB-MT's flags given, by name, with their values as
	// typed: the records' context.options.
	Options map[string]string `json:"options,omitempty"`
}

// ParseArgs reads the command line as IMB 2021's args_parser does for
// IMB-MT: every flag takes its value in the next word (-noheader and
// -list none), -count a comma-separated list, benchmark names in any case
// anywhere; an unknown flag or name is an error.
func ParseArgs(args []string) (*Config, error) {
	c := &Config{Warmup: DefaultWarmup, Repeat: DefaultRepeat, Window: DefaultWindow, Barrier: "on",
		MallocAlign: DefaultMallocAlign, MallocAlgo: "serial", Datatype: "int", Counts: DefaultCounts}
	var names, include, exclude []string
	var counts []int
	intFlag := func(dst *int) func(string) error {
		return func(v string) error {
			n, err := scanInt(v)
			*dst = n
			return err
		}
	}
	valued := map[string]func(string) error{
		"stride": intFlag(&c.Stride), "warmup": intFlag(&c.Warmup), "repeat": intFlag(&c.Repeat),
		"window_size": intFlag(&c.Window), "malloc_align": intFlag(&c.MallocAlign),
		"barrier":     func(v string) error { c.Barrier = v; return nil },
		"malloc_algo": func(v string) error { c.MallocAlgo = v; return nil },
		"datatype":    func(v string) error { c.Datatype = v; return nil },
		"check":       func(v string) (err error) { c.Check, err = parseBool(v); return err },
		"count": func(v string) error {
			for _, f := range strings.Split(v, ",") {
				n, err := scanInt(f)
				if err != nil {
					return err
				}
				counts = append(counts, n)
			}
			return nil
		},
		"include": func(v string) error { include = append(include, splitList(v)...); return nil },
		"exclude": func(v string) error { exclude = append(exclude, splitList(v)...); return nil },
		"input": func(v string) error {
			n, err := readInput(v)
			names = append(names, n...)
			return err
		},
		"json": func(v string) error { c.JSON = v; return nil },
		"o":    func(v string) error { c.JSON = v; return nil },
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, isFlag := strings.CutPrefix(a, "-")
		switch {
		case !isFlag || name == "":
			names = append(names, splitList(a)...)
		case name == "noheader":
			c.NoHeader = true
			c.note(name, "")
		case name == "list":
			c.List = true
		case valued[name] != nil:
			if i+1 == len(args) {
				return nil, cli.Usagef("ERROR: Parse error on option: -%s (it wants a value)", name)
			}
			i++
			if err := valued[name](args[i]); err != nil {
				return nil, cli.Usagef("ERROR: Parse error on option: -%s: %q: %v", name, args[i], err)
			}
			if name != "json" && name != "o" {
				c.note(name, args[i])
			}
		default:
			return nil, cli.Usagef("Invalid option %s", a)
		}
	}
	if counts != nil {
		c.Counts = counts
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	var err error
	if c.Benchmarks, err = runList(names, include, exclude); err != nil {
		return nil, err
	}
	c.OMPThreads = ompThreads(os.Getenv("OMP_NUM_THREADS"))
	return c, nil
}

// validate refuses the values IMB-MT refuses (MT_suite.cpp, prepare) and
// those it would crash or divide by zero on.
func (c *Config) validate() error {
	switch {
	case !slices.Contains([]string{"on", "off", "special"}, c.Barrier):
		return cli.Usagef("IMB-MT: Wrong barrier option value")
	case !slices.Contains([]string{"serial", "continuous", "parallel"}, c.MallocAlgo):
		return cli.Usagef("IMB-MT: Wrong malloc_algo option value")
	case c.Datatype != "int" && c.Datatype != "char":
		return cli.Usagef("IMB-MT: Unknown data type in datatype option")
	case c.Check && c.Datatype != "int":
		return cli.Usagef("IMB-MT: Only int data type is supported with check option")
	case c.MallocAlign < 1:
		return cli.Usagef("-malloc_align %d: want 1 or more (IMB-MT divides by it)", c.MallocAlign)
	case c.Window < 1 || c.Window > 1<<20:
		return cli.Usagef("-window_size %d: want 1 to %d", c.Window, 1<<20)
	case c.Warmup < 0:
		return cli.Usagef("-warmup %d: want 0 or more", c.Warmup)
	case c.Stride < 0:
		return cli.Usagef("-stride %d: want 0 (half the processes) or more", c.Stride)
	case len(c.Counts) == 0:
		return cli.Usagef("-count: no counts")
	}
	for _, n := range c.Counts {
		if n < 0 || n > 1<<28 {
			return cli.Usagef("-count %d: want 0 to %d elements", n, 1<<28)
		}
	}
	return nil
}

// note records a flag given in c.Options.
func (c *Config) note(name, v string) {
	if c.Options == nil {
		c.Options = map[string]string{}
	}
	if old, ok := c.Options[name]; ok && (name == "count" || name == "include" || name == "exclude") {
		v = old + "," + v
	}
	c.Options[name] = v
}

// runList is imb.cpp's list of benchmarks to run: the -include names,
// then the names given (or, when none, the default list less -exclude's),
// each once, in IMB-MT's spelling. An unknown name is IMB-MT's "Invalid
// benchmark name" (it prints it lowercased).
func runList(names, include, exclude []string) ([]string, error) {
	var out []string
	add := func(list []string) error {
		for _, n := range list {
			b, ok := Lookup(n)
			if !ok {
				return cli.Usagef("Invalid benchmark name %s", strings.ToLower(n))
			}
			if !slices.Contains(out, b.Name) && !excluded(exclude, b.Name) {
				out = append(out, b.Name)
			}
		}
		return nil
	}
	for _, n := range exclude {
		if _, ok := Lookup(n); !ok {
			return nil, cli.Usagef("Invalid benchmark name %s", strings.ToLower(n))
		}
	}
	if err := add(include); err != nil {
		return nil, err
	}
	if len(names) > 0 {
		if err := add(names); err != nil {
			return nil, err
		}
	} else {
		for _, b := range Table {
			_ = add([]string{b.Name})
		}
	}
	if len(out) == 0 {
		return nil, cli.Usagef("no benchmark left to run (-exclude took them all)")
	}
	return out, nil
}

func excluded(exclude []string, name string) bool {
	return slices.ContainsFunc(exclude, func(e string) bool { return strings.EqualFold(e, name) })
}

func splitList(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// readInput is -input FILE: a benchmark name per line, the first word;
// lines starting with # are comments (imb.cpp).
func readInput(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("can't open a file given in -input option: %v", err)
	}
	defer func() { _ = f.Close() }() // only read
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || len(strings.Fields(line)) == 0 {
			continue
		}
		out = append(out, strings.Fields(line)[0])
	}
	return out, sc.Err()
}

// scanInt reads an int as sscanf's %d: leading digits after an optional
// sign; trailing text is ignored, no digits is an error.
func scanInt(v string) (int, error) {
	s := strings.TrimLeft(v, " \t\n")
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	digits := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == digits {
		return 0, fmt.Errorf("want an integer")
	}
	n, err := strconv.ParseInt(s[:end], 10, 32)
	if err != nil {
		return 0, fmt.Errorf("want an integer that fits in a C int")
	}
	return int(n), nil
}

// parseBool is args_parser's BOOL: on, yes, true, enable, 1 (and their
// capitals) and their opposites.
func parseBool(v string) (bool, error) {
	switch v {
	case "on", "yes", "ON", "YES", "true", "enable", "TRUE", "ENABLE", "1":
		return true, nil
	case "off", "no", "OFF", "NO", "false", "disable", "FALSE", "DISABLE", "0":
		return false, nil
	}
	return false, fmt.Errorf("want on or off")
}

// ompThreads is the size of an OpenMP team as libgomp makes it: the
// first number of OMP_NUM_THREADS when it is a positive integer, else the
// processors this process may run on.
func ompThreads(env string) int {
	first, _, _ := strings.Cut(strings.TrimSpace(env), ",")
	if n, err := strconv.Atoi(strings.TrimSpace(first)); err == nil && n > 0 {
		return n
	}
	return runtime.NumCPU()
}
