package imb

import (
	"errors"
	"fmt"
	"time"

	"mpibench/run/mpijob"
)

// IMB-MPI1 2021.11's time-out, for mpi1 under -imb 2021. IMB 2021 starts
// a clock when a benchmark starts at a process count and mode
// (helper_sync_globals_2, src_cpp/helpers/helper_IMB_functions.h) and,
// before every sample, after the -time probes of IMB_init_buffers_iter
// and before the warm-up (original_benchmark.h), checks it on the active
// ranks (helper_time_check): past max(max(n_lens, max_msg_log −
// min_msg_log) − 1, 1) × -time seconds (n_lens: the -msglen lengths, 0
// without), the sample is not run, IMB_output.c prints its time-out line
// in the table in place of the row, and the benchmark's remaining lengths
// at that process count and mode are left out (stop_iterations). An
// MPI_Allreduce over MPI_COMM_WORLD makes it every rank's decision.
// mpibench applies it where the run has a -time bound (not with -time off,
// nor under -iter_policy off or multiple_np, whose records carry no bound;
// IMB applies its -time there too).

// errTimeOut ends a sweep at the sample that IMB 2021's time-out skips.
var errTimeOut = errors.New("IMB 2021 time-out")

// timeOutSecs is the time-out of mpi1 -imb 2021 in seconds, 0 for none.
func (d *Driver) timeOutSecs() float64 {
	if d.suite != MPI1Suite || d.cfg.F.IMB != imb2021 || d.cfg.TimeLimit <= 0 {
		return 0
	}
	n := max(max(len(d.cfg.Lengths), d.set.MaxMsgLog-d.set.MinMsgLog)-1, 1)
	return float64(n) * d.cfg.TimeLimit
}

// timedOut tells every rank whether an active rank has run the benchmark
// longer than the time-out since start.
func (d *Driver) timedOut(env *caseEnv, start time.Time) (bool, error) {
	limit := d.timeOutSecs()
	if limit <= 0 {
		return false, nil // the same on every rank: no collective
	}
	over := !env.comm.Null() && time.Since(start).Seconds() > limit
	failed, err := mpijob.Failed(d.world, over)
	return failed >= 0, err
}

// timeOutLine is IMB_output.c's line for the skipped sample at length x
// (Sync types, without a length, print MAXMSG: helper_init_scope).
func timeOutLine(x int) string {
	return fmt.Sprintf("%13d time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; "+
		"use \"-time X\" or SECS_PER_SAMPLE=X (IMB_settings.h) to increase time limit.", x)
}

// noteTimeOut prints the time-out line of length x in its table.
func (d *Driver) noteTimeOut(b *Benchmark, q int, groups [][]int, x int, m Mode) error {
	if b.NoBytes {
		x = d.set.MaxMsg()
	}
	// The record gives the table its header only: a nominal time of 1 s
	// per rank gives it the columns of a measured row (rates2021).
	all := make([]float64, nFigures*d.size)
	for i := 0; i < len(all); i += nFigures {
		all[i] = 1
	}
	w := row{b: b, q: q, groups: groups, x: x, mode: m, all: all}
	return d.speak(func() error { return d.out.Text.Note(d.record(&w, -1), timeOutLine(x)) })
}
