package mt

import (
	"mpibench/analysis/result"
	"mpibench/run/mpijob"
)

// Command is mpibench mt as mpibench's registry knows it.
var Command = func() mpijob.Entry {
	c := mpijob.Command[*Config]{Name: result.SuiteMT, Usage: Usage, Parse: parseCommand, Run: measure}.
		Entry(result.SuiteMT+" [Benchmark ...] [flags]", "run IMB-MT benchmarks (MPI-1 calls from several threads)")
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
		l.Rows = append(l.Rows, []string{result.SuiteMT, b.Name, b.Class(), "MPI_INT|MPI_CHAR", b.Calls})
	}
	return l
}

// Usage is the help of mpibench mt.
const Usage = `Usage: mpirun -np P mpibench mt [Benchmark ...] [flags]

Runs IMB-MT 2021.11's benchmarks (all of them when none is named; names
are case-insensitive, also comma-separated): PingPongMT, PingPingMT,
SendRecvMT, ExchangeMT, UniBandMT, BiBandMT, BarrierMT, BcastMT, ReduceMT,
AllReduceMT. Every thread of every process runs the benchmark at once on
a communicator of its own. With -thread_level multiple (MPI must provide
MPI_THREAD_MULTIPLE) each process runs OMP_NUM_THREADS threads (rank 0's;
unset: the processors rank 0 may run on); with any other level one
thread on MPI_COMM_WORLD, as IMB-MT. The flags are IMB-MT's: each takes
its value in the next word.

  -count N[,N...]  message lengths in elements (default 1,2,4,8); #bytes
                   is count x datatype size x threads
  -datatype int|char
                   the elements (default int)
  -repeat N        timed repetitions (default 1000)
  -warmup N        untimed repetitions before them (default 100)
  -window_size N   messages in flight in UniBandMT, BiBandMT (default 64)
  -stride N        the partner of rank r is r+N (default 0: half the
                   processes)
  -barrier on|off|special
                   the barrier over MPI_COMM_WORLD before a timed loop and
                   five times after each collective call: MPI_Barrier,
                   none, or a dissemination of empty messages (default on)
  -malloc_align N  buffers aligned to N bytes (default 64)
  -malloc_algo serial|continuous|parallel
                   buffers allocated one by one, as one block, or by their
                   own thread (default serial; the last two need
                   -thread_level multiple)
  -check on|off    verify every repetition of every thread (int only), add
                   a defects column; timings are then not benchmark data
  -noheader        leave out the suite's title
  -include B[,B]   run these too, first; -exclude B[,B] leave these out
  -input FILE      benchmark names, one per line (# starts a comment)
  -list            print the benchmarks as IMB-MT's -list does and stop
  -json FILE       write every row as a JSON Lines record to FILE (-o FILE
                   is the same flag)
  -h               this help

Exit codes: 0 ok, 1 run-time failure, 2 bad input, 3 -check found defects,
4 a case hung (watchdog), 130/143 interrupted by SIGINT/SIGTERM.
`
