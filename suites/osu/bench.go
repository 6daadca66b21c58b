package osu

import (
	"fmt"
	"strings"

	"mpibench/analysis/result"
)

// Kind is the shape of an OSU test: its counts, its columns and what its
// Result means.
type Kind int

// The kinds. Collective and NonBlocking are h24's (osu/coll*.go).
const (
	Latency        Kind = iota // osu_latency: one-way latency in µs
	Bandwidth                  // osu_bw, osu_bibw: MB/s
	MultiBandwidth             // osu_mbw_mr: MB/s and messages/s of all pairs
	MultiLatency               // osu_multi_lat: latency averaged over pairs
	LatencyMT                  // osu_latency_mt
	Collective                 // blocking collectives: avg (min, max) latency over ranks
	NonBlocking                // non-blocking collectives: overall, compute, pure, overlap
	RMALatency                 // one-sided latency tests: µs per operation (osu/rma.go)
	RMABandwidth               // one-sided bandwidth tests: MB/s
	LatencyMP                  // osu_latency_mp: osu_latency with forked processes (pt2pt_mp.go)
	Congestion                 // osu_bw_fan_in, osu_bw_fan_out: MB/s of all pairs (pt2pt_fan.go)
	Startup                    // osu_init, osu_hello (startup.go)
)

var kindNames = [...]string{"latency", "bandwidth", "multi-bandwidth", "multi-latency", "latency-mt",
	"collective", "non-blocking", "rma-latency", "rma-bandwidth", "latency-mp", "congestion", "startup"}

func (k Kind) String() string { return kindNames[k] }

// Collective says whether k is one of the collective kinds (their -m
// default is MAX_MSG_SIZE_COLL and their counts COLL_*).
func (k Kind) Collective() bool { return k == Collective || k == NonBlocking }

// counts are OSU's iterations and warm-ups, small then large
// (osu_util.h: BW_LOOP_SMALL, BW_SKIP_SMALL, BW_LOOP_LARGE, BW_SKIP_LARGE;
// LAT_*; COLL_*; process_options picks them by subtype).
func (k Kind) counts() [4]int {
	switch {
	case k == Bandwidth || k == MultiBandwidth || k == RMABandwidth || k == Congestion:
		return [4]int{100, 10, 20, 2}
	case k.Collective():
		return [4]int{1000, 100, 100, 10}
	}
	return [4]int{10000, 100, 1000, 10}
}

// Result is what a kernel measured at one size and datatype, on rank 0
// (the other ranks' Results are not used).
type Result struct {
	Avg, Min, Max float64 // µs for the latency kinds; Avg MB/s (MB = 10^6 bytes) for the bandwidth kinds
	MsgRate       float64 // osu_mbw_mr: messages per second
	// Samples are the figures of each timed iteration, OSU's array for -z:
	// µs for the latency kinds, MB/s for the bandwidth kinds.
	Samples []float64
	Times   []float64      // the time of each timed iteration in µs (--samples)
	Errors  int            // -c: OSU's error count (0: Pass)
	NBC     *result.OSUNBC // the non-blocking collectives' row (osu/coll*.go)
	// CountMode is how a message of 2 GiB and more went (big.go).
	CountMode string
}

// Benchmark is one OSU test.
type Benchmark struct {
	Name  string // OSU's program name: osu_latency
	Title string // its BENCHMARK line after "OSU MPI": "Latency Test"
	Kind  Kind
	// Opts are OSU 7.4's getopt letters for the test (osu_util_options.h,
	// without the accelerator ones), "h" and "v" included.
	Opts  string
	Calls string // the MPI calls, for mpibench list
	// Persistent: the test's requests are made once per size
	// (MPI_Send_init, MPI_Recv_init) and started in the loop
	// (c/mpi/pt2pt/persistent).
	Persistent bool
	// RMA is a one-sided test's definition (osu/rma.go); nil for the others.
	RMA *rmaTest
	// Procs checks the number of processes; nil: any.
	Procs func(n int) error
	// Measure runs the test at one size for the datatype of r; every rank
	// calls it.
	Measure func(r *Run, size int64) (Result, error)
}

// The getopt strings of OSU 7.4 (osu_util_options.h) for the tests here.
const (
	optsLat   = "+:hvm:x:i:b:c::u:G:D:P:T:Iz::"     // OMBOP__PT2PT__LAT
	optsBW    = "+:hvm:x:i:t:W:b:c::u:G:D:P:T:Iz::" // OMBOP__PT2PT__BW
	optsLatMT = "+:hvm:x:i:t:c::u:G:D:T:Iz::"       // OMBOP__PT2PT__LAT_MT
	optsMBWMR = "p:W:R:x:i:m:Vhvb:c::u:G:D:P:T:Iz::"
)

// table is every benchmark, in the order of mpibench list; h24's
// collectives add theirs with register.
var table []*Benchmark

// register adds benchmarks to the table (from an init function).
func register(bs ...*Benchmark) { table = append(table, bs...) }

// Benchmarks are the tests of mpibench osu, in listing order.
func Benchmarks() []*Benchmark { return table }

// Lookup finds a benchmark by its OSU name, with or without "osu_", in
// any case.
func Lookup(name string) (*Benchmark, bool) {
	n := strings.ToLower(name)
	if !strings.HasPrefix(n, "osu_") {
		n = "osu_" + n
	}
	for _, b := range table {
		if b.Name == n {
			return b, true
		}
	}
	return nil, false
}

// exactly is a Procs check for a fixed number of processes, with OSU's
// message ("This test requires exactly two processes").
func exactly(want int) func(int) error {
	return func(n int) error {
		if n != want {
			return fmt.Errorf("this test requires exactly %d processes, have %d", want, n)
		}
		return nil
	}
}

// even is osu_mbw_mr's and osu_multi_lat's check: pairs of processes.
func even(n int) error {
	if n < 2 || n%2 != 0 {
		return fmt.Errorf("this test requires an even number of processes (at least 2), have %d", n)
	}
	return nil
}
