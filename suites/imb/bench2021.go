package imb

import (
	"fmt"
	"strconv"

	"mpibench/analysis/result"
	"mpibench/suites/imb/kernel"
)

// MPI1From2021 are the benchmarks of IMB-MPI1 2021.11 that IMB 3.0 does
// not have, appended to the MPI1 table. They run when named (mpibench
// mpi1 Gather Uniband); a run without names keeps IMB 3.0's list
// (DefaultNames). The definitions come from IMB 2021.11's sources
// (src_c/IMB_<name>.c; flags, types and the default list in
// src_cpp/MPI1/MPI1_benchmark.cpp); the loops are kernel/kernels2021.c.
//
// Throughputs are IMB 2021's: MB = 10^6 bytes (IMB_output.c, MEGA =
// 1/1e6), where IMB 3.0's benchmarks keep 2^20. Uniband and Biband print
// Mbytes/sec and Msg/sec (IMB_output.c, OUT_BW_AND_MSG_RATE): msgrate =
// scale_bw · window · (np/2) / t_max, Mbytes/sec = msgrate · bytes / 10^6.
var MPI1From2021 = []Benchmark{
	{Name: "PingPongSpecificSource", Class: SingleTransfer, Calls: named2021("MPI_Send, MPI_Recv (source named, MPI_ANY_TAG)"),
		Kernel: kernel.PingPongSpecificSource, Factor: 1, TimeScale: 0.5, Since: 2021, NotDefault: true},
	{Name: "PingPongAnySource", Class: SingleTransfer, Calls: named2021("MPI_Send, MPI_Recv (MPI_ANY_SOURCE, MPI_ANY_TAG)"),
		Kernel: kernel.PingPongAnySource, Factor: 1, TimeScale: 0.5, Since: 2021, NotDefault: true},
	{Name: "PingPingSpecificSource", Class: SingleTransfer, Calls: named2021("MPI_Isend/MPI_Wait, MPI_Recv (source named, MPI_ANY_TAG)"),
		Kernel: kernel.PingPingSpecificSource, Factor: 1, TimeScale: 1, Since: 2021, NotDefault: true},
	{Name: "PingPingAnySource", Class: SingleTransfer, Calls: named2021("MPI_Isend/MPI_Wait, MPI_Recv (MPI_ANY_SOURCE, MPI_ANY_TAG)"),
		Kernel: kernel.PingPingAnySource, Factor: 1, TimeScale: 1, Since: 2021, NotDefault: true},
	{Name: "Reduce_local", Class: Collective, Calls: named2021("MPI_Reduce_local"), Kernel: kernel.ReduceLocal, Reduction: true,
		TimeScale: 1, Since: 2021},
	{Name: "Reduce_scatter_block", Class: Collective, Calls: named2021("MPI_Reduce_scatter_block"), Kernel: kernel.ReduceScatterBlock,
		Reduction: true, TimeScale: 1, Since: 2021},
	{Name: "Gather", Class: Collective, Calls: named2021("MPI_Gather"), Kernel: kernel.Gather, TimeScale: 1, Since: 2021},
	{Name: "Gatherv", Class: Collective, Calls: named2021("MPI_Gatherv"), Kernel: kernel.Gatherv, TimeScale: 1, Since: 2021},
	{Name: "Scatter", Class: Collective, Calls: named2021("MPI_Scatter"), Kernel: kernel.Scatter, TimeScale: 1, Since: 2021},
	{Name: "Scatterv", Class: Collective, Calls: named2021("MPI_Scatterv"), Kernel: kernel.Scatterv, TimeScale: 1, Since: 2021},
	{Name: "Uniband", Class: ParallelTransferMsgRate, Calls: named2021("MPI_Isend/MPI_Irecv windows, MPI_Waitall"),
		Kernel: kernel.Uniband, Factor: 1, TimeScale: 1, Since: 2021, NotDefault: true},
	{Name: "Biband", Class: ParallelTransferMsgRate, Calls: named2021("MPI_Isend/MPI_Irecv windows, MPI_Waitall"),
		Kernel: kernel.Biband, Factor: 2, TimeScale: 1, Since: 2021, NotDefault: true},
}

// DefaultNames is the list a run without benchmark names measures, in
// table order: IMB 3.0's for mpi1, ext and io, and in a suite of IMB 2021
// (nbc) what IMB 2021 runs by default (not the NotDefault ones, such as
// the _pure variants).
func (s *Suite) DefaultNames() []string {
	var names []string
	for _, b := range s.Table {
		if b.Since == 0 && !b.NotDefault {
			names = append(names, b.Name)
		}
	}
	return names
}

// pairCounts are the process counts of Uniband and Biband, which pair
// rank p with p + np/2: IMB 2021.11 (helper_IMB_functions.h,
// helper_init_scope) rounds P down and -npmin up to even numbers, then
// doubles as for the other benchmarks. A job of one process gives 1,
// which the driver reports as invalid.
func pairCounts(p, pmin int) []int {
	top, low := p-p%2, pmin+pmin%2
	var qs []int
	for q := max(1, min(top, low)); ; q = min(2*q, top) {
		qs = append(qs, q)
		if q >= top {
			return qs
		}
	}
}

// invalid says whether b cannot run on q processes, with the notice IMB
// prints for it: single transfers need SingleQ processes (IMB 3.0's
// words), Uniband and Biband two (IMB 2021.11's, IMB_output.c).
func (s *Suite) invalid(b *Benchmark, q int) (string, bool) {
	switch {
	case b.Class == SingleTransfer && q < s.SingleQ:
		return fmt.Sprintf("\n# !! Benchmark %s invalid for %d process   !! \n", b.Name, q), true
	case b.Class == ParallelTransferMsgRate && q < 2:
		return fmt.Sprintf("\n# !! Benchmark %s invalid for %d processes !! \n", b.Name, q), true
	}
	return "", false
}

// sizes2021 are BufferSizes for the kernels of MPI1From2021 that need
// other sizes than x and x (IMB's SENDBUF_SIZE_NP_I, RECVBUF_SIZE_NP_I).
func sizes2021(k kernel.Kernel, x, q int) (send, recv int, ok bool) {
	switch k {
	case kernel.Gather, kernel.Gatherv:
		return x, q * x, true
	case kernel.Scatter, kernel.Scatterv, kernel.ReduceScatterBlock:
		return q * x, x, true
	}
	return 0, 0, false
}

// windowSize is -window_size, or IMB 2021.11's default.
func (c *Config) windowSize() int {
	if c.Window > 0 {
		return c.Window
	}
	return kernel.DefaultWindow
}

// rates2021 sets the throughput columns of a record of an IMB 2021
// benchmark (see MPI1From2021), from its t_max in µs.
func rates2021(r *result.Record, b *Benchmark, window int) {
	r.MBps = 0
	if r.TMax <= 0 {
		return
	}
	if b.Class == ParallelTransferMsgRate {
		r.Window = window
		r.MsgRate = b.Factor * float64(window*(r.NProcs/2)) / (r.TMax * 1e-6)
		r.MBps = r.MsgRate * float64(r.Bytes) / 1e6
		return
	}
	if b.Factor > 0 {
		r.MBps = b.Factor * float64(r.Bytes) / r.TMax // bytes per µs: MB/s with MB = 10^6
	}
}

// setWindow reads -window_size: the messages Uniband and Biband keep in
// flight per repetition.
func (o *Options) setWindow(val string) error {
	n, err := strconv.Atoi(val)
	if err != nil || n < 1 {
		return usagef("-window_size %q: want an integer >= 1 (IMB 2021's default is %d)", val, kernel.DefaultWindow)
	}
	o.Window = n
	return nil
}

// mpi1Usage is the help of mpi1's IMB 2021 benchmarks.
const mpi1Usage = `  -window_size N
                Uniband, Biband: messages in flight per repetition
                (default 256, IMB 2021.11's)
  IMB-MPI1 2021's benchmarks run when named (mpibench mpi1 Gather Uniband):
                Gather Gatherv Scatter Scatterv Reduce_local
                Reduce_scatter_block Uniband Biband PingPongSpecificSource
                PingPongAnySource PingPingSpecificSource PingPingAnySource
`

// named2021 is the list's "based on" text of an IMB 2021 benchmark: its
// calls, and that it runs when named.
func named2021(calls string) string { return calls + " [IMB 2021: runs when named]" }
