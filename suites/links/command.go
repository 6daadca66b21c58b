// Package links is mpibench links: every link of a job measured at once
// with mpiGraph's shift pattern (LLNL mpiGraph 1.5, mpiGraph.c): at
// distance d = 1..P-1 every rank sends a window of messages to rank+d and
// receives one from rank-d, giving P×P send and receive bandwidth
// matrices, and (not in mpiGraph) a latency matrix from empty pings in the
// same pattern. Package analysis/matrix makes the matrices and finds the
// slow pairs; the timed C loops are package links/kernel.
package links

import (
	"fmt"
	"strconv"

	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/run/diskcheck"
	"mpibench/run/mpijob"
)

// mpiGraph's defaults (mpiGraph.c, main): 16 KiB messages (4096*4), 100
// iterations per distance, a window of 50 messages.
const (
	DefaultSize   = 16384
	DefaultTimes  = 100
	DefaultWindow = 50
	DefaultWarm   = 1  // -warmup: not mpiGraph's (none), see Usage
	DefaultSlow   = 20 // -slow, percent
	// DefaultMatrices is -matrices: the text prints the three P×P grids
	// up to 1,024 processes, about 3·P²·20 bytes = 60 MB of text; a
	// larger run must ask for its grids (or for none) before it starts.
	DefaultMatrices = 1024
	maxBuffer       = 1 << 30 // window × size of one buffer
)

// Config is a links run, agreed by every rank.
type Config struct {
	Size   int     `json:"size"`
	Times  int     `json:"iters"`
	Window int     `json:"window"`
	Warm   int     `json:"warmup"`
	Slow   float64 `json:"slow_pct"`
	JSON   string  `json:"json,omitempty"`
	// Matrices is -matrices: the most processes whose grids the text
	// prints, 0 for none (the summaries and slow pairs only).
	Matrices int `json:"matrices"`
	// Disk is -disk: the most bytes the results file may take; 0 for
	// min(16 GiB, half the free space).
	Disk int64 `json:"disk_bytes,omitempty"`
}

// Command is mpibench links as mpibench's registry knows it.
var Command = mpijob.Command[*Config]{Name: result.SuiteLinks, Usage: Usage, Parse: parseCommand, Run: measure}.
	Entry(result.SuiteLinks+" [flags]", "every link at once (mpiGraph): bandwidth and latency matrices")

// Usage is the help of mpibench links.
const Usage = `Usage: mpirun -np P mpibench links [flags]

Measures every link of the job at once with mpiGraph's shift pattern: for
d = 1..P-1 every rank sends to rank+d and receives from rank-d (mod P),
all ranks together. Each iteration starts after two barriers, posts a
window of receives and a window of sends and polls them; the send
(receive) time per message is the time until all sends (receives) were
done, divided by the window; bandwidth = length / mean time per message.
Then, in the same pattern, each rank pings rank+d with an empty message
and answers rank-d: latency = half the round trip. Prints the P×P send
bandwidth, receive bandwidth and latency matrices (row = sender) and the
slow pairs; one record per rank and figure, with its time to every
partner. Run one rank per node (or per network interface) to map the
network.

  -size BYTES    message length (default 16384, mpiGraph's)
  -iters N       iterations per distance (default 100, mpiGraph's "times")
  -window N      messages in flight per iteration (default 50, mpiGraph's)
  -warmup N      untimed iterations before them at each distance (default 1;
                 mpiGraph has none, -warmup 0 is mpiGraph exactly): the first
                 message between two ranks also sets up their connection
  -slow PCT      flag a pair worse than the median of the other pairs of
                 its row or its column by more than PCT percent (default 20)
  -matrices N    print the three P×P grids up to N processes (default 1024);
                 a run on more stops before it starts, with the size of the
                 text, unless N is raised; 0 prints only each matrix's
                 summary and slow pairs (the -json file keeps every pair)
  -json FILE     write every pair as a JSON Lines record to FILE (-o FILE
                 is the same flag)
  -disk SIZE     most bytes the -json file may take, e.g. 500M, 20G (K, M,
                 G, T, P: powers of 1024; default min(16 GiB, half the free
                 space)); a run whose file may need more, or more than its
                 file system has free, stops before it starts
  -h             this help

Exit codes: 0 ok, 1 run-time failure, 2 bad input, 4 a case hung
(watchdog), 130/143 interrupted by SIGINT/SIGTERM.
`

func parseCommand(args []string, size int, _ bool) (*Config, string, error) {
	c, err := ParseArgs(args, size)
	if err != nil {
		return nil, "", err
	}
	return c, c.JSON, nil
}

// ParseArgs reads the flags of mpibench links for size processes.
func ParseArgs(args []string, size int) (*Config, error) {
	c := &Config{Size: DefaultSize, Times: DefaultTimes, Window: DefaultWindow, Warm: DefaultWarm, Slow: DefaultSlow,
		Matrices: DefaultMatrices}
	fs := cli.NewFlags(result.SuiteLinks)
	fs.Func("size", "", positive(&c.Size, 0, "bytes"))
	fs.Func("iters", "", positive(&c.Times, 1, "iterations"))
	fs.Func("window", "", positive(&c.Window, 1, "messages"))
	fs.Func("warmup", "", positive(&c.Warm, 0, "iterations"))
	fs.Float64Var(&c.Slow, "slow", c.Slow, "")
	fs.Func("matrices", "", positive(&c.Matrices, 0, "processes"))
	fs.Func("disk", "", diskcheck.Flag(&c.Disk))
	cli.Results(fs, &c.JSON)
	var help bool
	if err := cli.Parse(fs, args, &help, result.SuiteLinks); err != nil || help {
		return c, err
	}
	switch {
	case !(c.Slow >= 0 && c.Slow <= 100):
		return nil, cli.Usagef("-slow %v: want a percentage from 0 to 100", c.Slow)
	case int64(c.Size)*int64(c.Window) > maxBuffer:
		return nil, cli.Usagef("-size %d × -window %d: more than 1 GiB per buffer", c.Size, c.Window)
	case size < 2:
		return nil, cli.Usagef("links needs at least 2 processes, got %d", size)
	case c.Matrices > 0 && size > c.Matrices:
		return nil, cli.Usagef("links on %d processes would print three %d×%d grids, %d cells, at least %s of text; "+
			"-matrices %d allows %d processes (-matrices %d prints them, -matrices 0 prints the summaries and slow pairs only; "+
			"the -json file keeps every pair)", size, size, size, 3*size*size, diskcheck.Bytes(gridTextBytes(size)),
			c.Matrices, c.Matrices, size)
	}
	return c, nil
}

// gridTextBytes is the least text of the three grids on p processes: a
// cell takes at least 3 bytes (a digit and two spaces), a row its end.
func gridTextBytes(p int) int64 {
	return 3 * int64(p+1) * (3*int64(p+1) + 1)
}

// positive is a flag setter for an integer of at least least.
func positive(dst *int, least int, what string) func(string) error {
	return func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < least || n > maxBuffer {
			return fmt.Errorf("want %s from %d to %d", what, least, maxBuffer)
		}
		*dst = n
		return nil
	}
}
