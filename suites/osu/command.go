package osu

import (
	"fmt"
	"strings"

	"mpibench/analysis/result"
	"mpibench/run/mpijob"
)

// Command is mpibench osu as mpibench's registry knows it.
var Command = func() mpijob.Entry {
	c := mpijob.Command[*Options]{Name: result.SuiteOSU, Usage: Usage, Parse: parseCommand, Run: measure}.
		Entry(result.SuiteOSU+" BENCH [flags]", "run an OSU Micro-Benchmarks 7.4 test (osu_latency, ...)")
	c.List = listing
	return c
}()

func parseCommand(args []string, _ int, _ bool) (*Options, string, error) {
	o, err := Parse(args)
	if err != nil {
		return nil, "", err
	}
	return o, o.JSON, nil
}

// listing is the suite's rows of `mpibench list`.
func listing() mpijob.Listing {
	l := mpijob.Listing{Header: []string{"suite", "benchmark", "class", "datatype", "based on"}}
	for _, b := range table {
		l.Rows = append(l.Rows, []string{result.SuiteOSU, b.Name, b.Kind.String(), datatype(b), b.Calls})
	}
	return l
}

// datatype is the listing's datatype of b: MPI_CHAR, or another with -T
// where OSU 7.4's getopt string for the test has -T; "-" for the
// barriers, which send no data and take no -T.
func datatype(b *Benchmark) string {
	if strings.Contains(b.Opts, "T:") {
		return "MPI_CHAR (-T)"
	}
	return "-"
}

// Usage is the help of mpibench osu. The tests that run 2 GiB and more
// come from big.go's table, so the help cannot drift from what -m takes.
var Usage = fmt.Sprintf(usageText, wrap(bigHelp()+")", usageIndent, usageWidth))

// usageIndent and usageWidth lay out a continued line of the flags' help.
const (
	usageIndent = "                   "
	usageWidth  = 72
)

// usageText is Usage with a %s for the tests that run 2 GiB and more.
const usageText = `Usage: mpirun -np P mpibench osu BENCH [flags]

Runs one test of the OSU Micro-Benchmarks 7.4 with OSU's definitions,
flags and output (mpibench list shows the tests; "osu_" may be left out).
The flags are OSU's (its getopt letters and long names; each test takes
the ones OSU 7.4 gives it):

  -m, --message-size [MIN:]MAX  sizes MIN, 2·MIN, ... up to MAX bytes
                   (suffix K, M, G allowed; default 0 or 1 to 4M, the
                   collectives 1M; 2 GiB and more, up to 1 TiB, only for
%s
  -i, --iterations N   timed iterations (default 10000 latency, 100
                   bandwidth, 1000 collectives; for sizes above 8192:
                   1000, 20, 100)
  -x, --warmup N   warm-up iterations (default 100, 10, 100; above 8192
                   bytes: 10, 2, 10)
  -W, --window-size N  messages in flight (bandwidth tests; default 64)
  -f, --full       min, max and iterations columns (collectives)
  -z, --tail-lat[=P,...]  percentile columns (attached: -z50,99; default
                   50, 90, 99; at most 5)
  -c, --validation  verify every message (columns Validation: Pass/Fail;
                   exit code 3 on a failure); timings are then not data
  -u, --validation-warmup N  untimed repetitions before each timed one
                   with -c (default 5, at most 10)
  -T, --type T     mpi_char (default), mpi_int, mpi_float, all; may repeat
  -D, --ddt T      derived datatype: cont, vect:STRIDE:BLOCK, indx:FILE
  -b, --buffer-num single|multiple  one buffer, or one per window slot
  -l, --in-place   MPI_IN_PLACE (collectives that have it)
  -t, --num-test-calls N  MPI_Test calls (non-blocking collectives);
                   [SEND:]RECV threads (osu_latency_mt); [SEND:]RECV
                   forked processes (osu_latency_mp; default 2:2)
  -M, --mem-limit BYTES  per-process memory limit (collectives)
  -k, --root-rank fixed:N|rotate  root (rooted collectives)
  -w, --win-options create|allocate|dynamic  the window's creation
                   (one-sided tests; default allocate)
  -s, --sync-option S  lock, pscw, fence, flush, flush_local, lock_all
                   (one-sided tests; default flush, osu_put_bibw pscw;
                   osu_put_bibw takes pscw or fence)
  -N, --nhbr cart:DIM:RAD|graph:FILE  topology of the neighbourhood tests
                   (default cart:1:1: needs 3 processes or more)
  -R, --print-rate 0|1  Messages/s column (osu_mbw_mr; default 1)
  -p, --num-pairs N  accepted, as OSU 7.4: osu_mbw_mr uses np/2 pairs
  -V, --vary-window  osu_mbw_mr at windows 1, 2, 4, ..., 128 (not with -W)
  --samples        put every timed iteration's time in the records
  -json FILE       write every row as a JSON Lines record to FILE (also
                   -o FILE, --json FILE)
  -h, --help       this help

Exit codes: 0 ok, 1 run-time failure, 2 bad input, 3 -c found errors,
4 a case hung (watchdog), 130/143 interrupted by SIGINT/SIGTERM.
`

// wrap breaks text at spaces into lines of at most width characters,
// each starting with indent.
func wrap(text, indent string, width int) string {
	var lines []string
	line := indent
	for _, w := range strings.Fields(text) {
		if line != indent && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}
