package p2p

import (
	"mpibench/analysis/result"
	"mpibench/run/mpijob"
)

// Command is mpibench p2p as mpibench's registry knows it.
var Command = func() mpijob.Entry {
	c := mpijob.Command[*Config]{Name: result.SuiteP2P, Usage: Usage, Parse: parseCommand, Run: measure}.
		Entry(result.SuiteP2P+" [Benchmark ...] [flags]", "run IMB-P2P benchmarks (message rate)")
	c.List = listing
	return c
}()

func parseCommand(args []string, _ int, _ bool) (*Config, string, error) {
	c, err := ParseArgs(args)
	if err != nil {
		return nil, "", err
	}
	return c, c.JSON, nil
}

// listing is the suite's rows of `mpibench list`.
func listing() mpijob.Listing {
	l := mpijob.Listing{Header: []string{"suite", "benchmark", "class", "datatype", "based on"}}
	for _, b := range Table {
		l.Rows = append(l.Rows, []string{result.SuiteP2P, b.Name, b.Pattern, "MPI_BYTE", b.Calls})
	}
	return l
}

// Usage is the help of mpibench p2p.
const Usage = `Usage: mpirun -np P mpibench p2p [Benchmark ...] [flags]

Runs IMB-P2P 2021.11's benchmarks (all of them when none is named; names
are case-insensitive, also comma-separated): PingPong, PingPing,
Unirandom, Birandom, Corandom, Stencil2D, Stencil3D, SendRecv_Replace.
Flags and names may come in any order; the flags are IMB-P2P's.

  -msglog n|k:n    lengths 0, 1, 2, ..., 2^n, or 2^k, ..., 2^n (n <= 30;
                   default 0, 1, ..., 4194304)
  -msglen FILE     lengths in bytes, one per line, suffix K, M, G allowed;
                   lines starting with # are comments
  -msgsz SIZE      add a length (suffix K, M, G allowed); may repeat
  -iter max[,numerator]
                   repetitions per length: numerator MiB / length, rounded,
                   between 1 and max (default 100000,800)
  -msgwr on|off    write a byte per cache line of the send buffer before
                   every send (default on)
  -msgrd on|off    read a byte per cache line of the receive buffer after
                   every receive (default on)
  -pause USEC      sleep before and after every length's measurement
                   (default 100000; negative: none)
  -list, -l        print the benchmarks as IMB-P2P's -list does and stop
  -check           verify every received byte, add a defects column;
                   timings are then not valid benchmark data
  -json FILE       write every row as a JSON Lines record to FILE (-o FILE
                   is the same flag)
  -h               this help

Exit codes: 0 ok, 1 run-time failure, 2 bad input, 3 -check found defects,
4 a case hung (watchdog), 130/143 interrupted by SIGINT/SIGTERM.
`
