package imb

import (
	"mpibench/analysis/result"
	"mpibench/mpi"
)

// runner measures one benchmark on one process count. The driver calls
// setup once, then measure for every mode and length, then free; idle
// ranks (comm is MPI_COMM_NULL) take part in the calls and report -1.
type runner interface {
	setup() error
	measure(x int, m Mode) (Sample, error)
	free() error
}

// Sample is one rank's outcome for one length and mode.
type Sample struct {
	T       float64 // seconds per repetition; -1 on an idle rank
	Defects int     // -check: wrong items this rank found
	TPure   float64 // non-blocking mode: seconds per repetition of the blocking run
	TCPU    float64 // IMB-NBC: seconds per repetition of CPU work in the overlapped run
}

// caseEnv is what a runner is built from.
type caseEnv struct {
	suite   string // the suite's name, for errors
	b       *Benchmark
	set     *Settings
	comm    mpi.Comm // the active communicator; Null on idle ranks
	q       int      // active processes per group
	group   int      // this rank's group (the _g suffix of IO files); -1 idle
	multi   bool     // a Multi run (-multi 0|1): IMB-IO file names carry _g<group>
	lens    []int    // every length the driver will ask for
	check   bool
	ioDir   string     // IMB-IO: where files go
	cpuSecs float64    // IMB-IO: calibrated CPU_Exploit seconds, t_CPU
	nRep    int        // repetitions of the next measure (-time); 0: IMB 3.0's count
	asked   int        // the count the definition gave before -time's rule (limitReps)
	probing bool       // the next measure is a probe or an untimed run: no warm-up (nbc, mpi4, rma)
	window  int        // Uniband, Biband: -window_size
	f21     *Flags2021 // IMB 2021's flags (-imb 2021, -sync, -root_shift)
	sync    *syncState // -sync window: the clock and the latest window result (window.go)
}

// reps is the repetition count of a sample at length x in mode m: the one
// the driver chose under -time, else IMB 3.0's n_sample.
func (e *caseEnv) reps(x int, m Mode) int {
	if e.nRep > 0 {
		return e.nRep
	}
	return e.set.Repetitions(x, m)
}

// warmUpError names the warm-up an error of this rank was met in: it runs
// at the maximum length x, not at the length measured next.
func (e *caseEnv) warmUpError(err error, x int) error {
	return result.InCase(err, result.CaseError{Suite: e.suite, Bench: e.b.Name, Mode: "warm-up", Bytes: x, Procs: e.q})
}

// newRunner builds the runner of env.b's suite.
func newRunner(env *caseEnv) runner {
	switch {
	case env.b.RMA3 != nil:
		return newRMA3Case(env)
	case env.b.RMA != nil:
		return newRMACase(env)
	case env.b.IO != nil:
		return newIOCase(env)
	case env.b.NBC != nil:
		return newNBCCase(env)
	case wantsBig(env):
		return &bigCase{benchCase: newCase(env)} // bigcase.go: 2 GiB and more
	}
	return newCase(env)
}
