package imb

import "mpibench/mpi"

// IMB-MPI1 2021.11's warm-up, for mpi1 under -imb 2021. IMB 2021 runs
// IMB_warm_up (src_c/IMB_warm_up.c) before every timed sample, at the
// sample's length: src_cpp/helpers/original_benchmark.h calls it after
// IMB_init_buffers_iter (which has run the -time probes and set n_sample)
// and right before the timed kernel call. It calls the benchmark's own
// kernel function, N_BARR barriers and -sync barriers included (e.g.
// IMB_bcast.c), untimed for the results, with n_sample/WARMUP_PERCENT
// repetitions, at least min(MIN_WARMUP_ITERS, n_sample) (warmCount), on the
// active processes only; -warm_up off (c_info->warm_up = 0,
// MPI1_suite.cpp) leaves it out. IMB 3.0's N_WARMUP runs at the largest
// length (benchCase.setup) are IMB 3.0's only.

// lengthWarmer is a runner that warms up before every timed sample; the
// driver calls warmUp after the -time probes, with the sample's
// repetition count.
type lengthWarmer interface {
	warmUp(x, reps int) error
}

// warmEvery tells whether mpi1's benchmarks warm up as IMB 2021.11 does:
// -imb 2021 with -warm_up on (IMB's default).
func (f *Flags2021) warmEvery() bool { return f.IMB == imb2021 && f.WarmUp != "off" }

// warmSweeps is the number of IMB 3.0 warm-up runs at the largest length
// before a benchmark's first sample: N_WARMUP (0 under -warm_up off), none
// under -imb 2021.
func (f *Flags2021) warmSweeps(set *Settings) int {
	if f.IMB == imb2021 {
		return 0
	}
	return set.NWarmup
}

// warmUp runs IMB 2021's warm-up of the sample at length x, which will
// run reps repetitions.
func (c *benchCase) warmUp(x, reps int) error {
	if !c.active() || !c.f21.warmEvery() {
		return nil
	}
	if _, err := c.run(x, warmCount(reps)).Exec(); err != nil {
		return c.warmUpError(err, x)
	}
	return nil
}

// warmUp is benchCase's, on the large-count kernel from 2 GiB on.
func (c *bigCase) warmUp(x, reps int) error {
	if !c.active() || !c.f21.warmEvery() {
		return nil
	}
	if !mpi.IsBig(int64(x)) {
		return c.benchCase.warmUp(x, reps)
	}
	if _, err := c.bigRun(x, warmCount(reps)).Exec(); err != nil {
		return c.warmUpError(err, x)
	}
	return nil
}
