package kernel

// The kernels of kernels2021.h: the benchmarks IMB-MPI1 2021 added to IMB
// 3.0's list. They are numbered from 100 on, after kernels.h's, and run
// by kernels2021.c (Run.Exec picks the file by number).
const (
	Gather Kernel = iota + firstKernel2021
	Gatherv
	Scatter
	Scatterv
	ReduceLocal
	ReduceScatterBlock
	Uniband
	Biband
	PingPongSpecificSource
	PingPongAnySource
	PingPingSpecificSource
	PingPingAnySource
)

// firstKernel2021 is MB21_GATHER.
const firstKernel2021 Kernel = 100

// DefaultWindow is IMB-MPI1 2021.11's -window_size default: the messages
// Uniband and Biband keep in flight per repetition (MPI1_suite.cpp,
// parser.add<int>("window_size", 256)).
const DefaultWindow = 256
