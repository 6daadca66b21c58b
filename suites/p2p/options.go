package p2p

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"mpibench/analysis/result"
	"mpibench/internal/cli"
)

// IMB-P2P's defaults (imb_p2p.h, imb_p2p.c: loading).
const (
	DefaultMaxLog    = 22                // lengths 0, 1, 2, 4, ..., 4 MiB
	DefaultIterMax   = 100000            // -iter max
	DefaultNumerator = 100 * 8 * 1 << 20 // bytes: iterations = numerator / length
	DefaultPause     = 100000            // -pause, µs
	// MaxLen bounds a length: MPI's counts are C ints.
	MaxLen = math.MaxInt32
)

// Config is a p2p run as every rank agreed on it.
type Config struct {
	Benchmarks []string `json:"benchmarks"` // in run order
	Lengths    []int    `json:"lengths"`    // in run order, as given
	IterMax    int      `json:"iter_max"`
	Numerator  int      `json:"numerator"` // bytes
	TouchSend  bool     `json:"msgwr"`
	TouchRecv  bool     `json:"msgrd"`
	PauseUsec  int      `json:"pause_us"`
	Check      bool     `json:"check"`
	JSON       string   `json:"json,omitempty"`
	List       bool     `json:"list,omitempty"` // -list: print the benchmarks and stop
	// Options are IMB-P2P's flags given, by name, with their values as
	// typed (-msgsz's joined by commas): the records' context.options.
	Options map[string]string `json:"options,omitempty"`
}

// Iterations is IMB-P2P's get_iters: round(numerator/length) between 1 and
// the maximum (the maximum for length 0), and a tenth of it, at least 1
// when there is more than one, for the warm-up.
func (c *Config) Iterations(length int) (iters, warm int) {
	iters = c.IterMax
	if length > 0 {
		n := math.Round(float64(c.Numerator) / float64(length))
		iters = int(max(min(n, float64(c.IterMax)), 1))
	}
	warm = iters / 10
	if warm == 0 && iters > 1 {
		warm = 1
	}
	return iters, warm
}

// ParseArgs reads the command line: benchmark names (any case, also
// comma-separated) and IMB-P2P's flags, in any order. -msgsz adds a
// length, -msglog and -msglen replace the lengths so far, as in IMB-P2P.
func ParseArgs(args []string) (*Config, error) {
	c := &Config{IterMax: DefaultIterMax, Numerator: DefaultNumerator, TouchSend: true, TouchRecv: true,
		PauseUsec: DefaultPause}
	fs := cli.NewFlags(result.SuiteP2P)
	var lens []int
	set := false
	c.flag(fs, "msglen", func(v string) error { l, err := readLengths(v); lens, set = l, true; return err })
	c.flag(fs, "msglog", func(v string) error { l, err := logLengths(v); lens, set = l, true; return err })
	c.flag(fs, "msgsz", func(v string) error { l, err := parseSize(v); lens, set = append(lens, l), true; return err })
	c.flag(fs, "iter", c.parseIter)
	c.flag(fs, "msgwr", onOff(&c.TouchSend))
	c.flag(fs, "msgrd", onOff(&c.TouchRecv))
	c.flag(fs, "pause", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n > 60000000 {
			return fmt.Errorf("want microseconds up to 60000000 (a negative value: no pause)")
		}
		c.PauseUsec = n
		return nil
	})
	fs.BoolVar(&c.Check, "check", false, "")
	// IMB-P2P takes -list and -l (imb_p2p.c, loading).
	fs.Var(cli.Switch{On: &c.List}, "list", "")
	fs.Var(cli.Switch{On: &c.List}, "l", "")
	cli.Results(fs, &c.JSON)
	var help bool
	if DropIn {
		args, _ = cli.DropUnknown(fs, args)
	}
	names, err := cli.ParseMixed(fs, args, &help)
	if err != nil {
		return nil, err
	}
	if help {
		return nil, cli.Usagef("-h is handled before parsing")
	}
	if DropIn {
		names = knownNames(names)
	}
	if c.Benchmarks, err = benchmarks(names); err != nil {
		return nil, err
	}
	c.Lengths = lens
	if !set {
		c.Lengths = append([]int{0}, powers(0, DefaultMaxLog)...)
	}
	if len(c.Lengths) == 0 {
		return nil, cli.Usagef("-msglen: no lengths in the file")
	}
	return c, nil
}

// DropIn is set when mpibench runs under the name IMB-P2P (cmd/mpibench,
// dropin.go): then, as in IMB-P2P 2021.11 (src_c/P2P/imb_p2p.c, loading,
// whose loop over argv has no case for anything else), an unknown flag
// and a word that is no benchmark name are ignored without a word; none
// left runs every benchmark.
var DropIn bool

// knownNames keeps the benchmark names of names (comma-separated ones
// too) that IMB-P2P has.
func knownNames(names []string) []string {
	var out []string
	for _, arg := range names {
		for _, n := range strings.Split(arg, ",") {
			if _, ok := Lookup(n); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

// flag defines IMB-P2P's flag name, read by set, and records a value set
// took in c.Options.
func (c *Config) flag(fs *flag.FlagSet, name string, set func(string) error) {
	fs.Func(name, "", func(v string) error {
		if err := set(v); err != nil {
			return err
		}
		if c.Options == nil {
			c.Options = map[string]string{}
		}
		if old, ok := c.Options[name]; ok && name == "msgsz" {
			v = old + "," + v // -msgsz adds a length each time
		}
		c.Options[name] = v
		return nil
	})
}

// benchmarks resolves the names given (all of IMB-P2P's when none is).
func benchmarks(names []string) ([]string, error) {
	var out []string
	for _, arg := range names {
		for _, n := range strings.Split(arg, ",") {
			if n == "" {
				continue
			}
			b, ok := Lookup(n)
			if !ok {
				return nil, cli.Usagef("unknown benchmark %q (mpibench list shows them)", n)
			}
			out = append(out, b.Name)
		}
	}
	if len(out) == 0 {
		for _, b := range Table {
			out = append(out, b.Name)
		}
	}
	return out, nil
}

// parseIter is -iter max[,numerator]: numerator in MiB, as IMB-P2P.
func (c *Config) parseIter(v string) error {
	parts := strings.Split(v, ",")
	if len(parts) > 2 {
		return fmt.Errorf("want max[,numerator]")
	}
	var n [2]int
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x <= 0 || x > math.MaxInt32 {
			return fmt.Errorf("want max[,numerator], positive integers")
		}
		n[i] = x
	}
	c.IterMax = n[0]
	if len(parts) == 2 {
		c.Numerator = n[1] << 20
	}
	return nil
}

// onOff parses IMB-P2P's boolean words into dst.
func onOff(dst *bool) func(string) error {
	return func(v string) error {
		switch strings.ToLower(v) {
		case "1", "on", "enable", "yes", "true":
			*dst = true
		case "0", "off", "disable", "no", "false":
			*dst = false
		default:
			return fmt.Errorf("want 0, 1, false, true, disable, enable, off, on, no, yes")
		}
		return nil
	}
}

// parseSize reads a length with an optional K, M or G suffix (powers of
// 1024), as -msgsz and the -msglen file take it.
func parseSize(v string) (int, error) {
	n, err := cli.Bytes(v, MaxLen)
	return int(n), err
}

// logLengths is -msglog n (0, 1, 2, ..., 2^n) or k:n (2^k, ..., 2^n).
func logLengths(v string) ([]int, error) {
	lo, hi, two := strings.Cut(v, ":")
	a, err1 := strconv.Atoi(lo)
	b, err2 := a, error(nil)
	if two {
		b, err2 = strconv.Atoi(hi)
	}
	if err1 != nil || err2 != nil || a < 0 || b < a || b > 30 {
		return nil, fmt.Errorf("want n or k:n with 0 <= k <= n <= 30 (lengths are C ints)")
	}
	if two {
		return powers(a, b), nil
	}
	return append([]int{0}, powers(0, a)...), nil
}

func powers(lo, hi int) []int {
	var out []int
	for e := lo; e <= hi; e++ {
		out = append(out, 1<<e)
	}
	return out
}

// readLengths reads a -msglen file: one length per line, K/M/G allowed,
// lines starting with # are comments (blank lines are passed over, where
// IMB-P2P stops with an error).
func readLengths(path string) ([]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // only read
	var out []int
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		n, err := parseSize(strings.Fields(t)[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		out = append(out, n)
	}
	return out, sc.Err()
}
