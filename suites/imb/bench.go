// Package imb is the Intel MPI Benchmarks family of mpibench: the IMB 3.0
// suites IMB-MPI1, IMB-EXT and IMB-IO (the default definitions of mpi1,
// ext and io), IMB 2021.11's definitions of IMB-MPI1 and IMB-EXT (-imb
// 2021) with IMB-MPI1 2021's additional benchmarks, and IMB 2021.11's
// IMB-NBC, IMB-MPI4 and IMB-RMA (nbc, mpi4, rma). It holds their benchmark
// tables, their rules (message lengths, repetitions, the -time bound,
// modes, process counts, -map and -multi layouts, results checking, IMB
// 2021's flags, the IO files) and the driver that runs them with real MPI,
// one runner per suite. IMB-P2P, which shares nothing with these, is
// package p2p. docs/imb.md is the manual.
package imb

import "mpibench/suites/imb/kernel"

// Class is IMB's benchmark classification (section 3.3.1).
type Class int

// The three classes of IMB-MPI1.
const (
	SingleTransfer Class = iota
	ParallelTransfer
	Collective
	ParallelTransferMsgRate // IMB 2021's Uniband and Biband: pairs, a message rate column
	MultPassiveTransfer     // IMB-RMA's One_put_all ...: one origin, every other rank a passive target
)

func (c Class) String() string {
	return [...]string{"single", "parallel", "collective", "parallel", "passive"}[c]
}

// Title is the class name as the IMB guide writes it.
func (c Class) Title() string {
	return [...]string{"Single Transfer", "Parallel Transfer", "Collective", "Parallel Transfer", "Passive Transfer"}[c]
}

// Benchmark describes one benchmark: a value in a table, run by one kernel.
type Benchmark struct {
	Name      string
	Class     Class
	Calls     string        // the MPI calls it is based on
	Kernel    kernel.Kernel // the timed C loop
	Reduction bool          // MPI_FLOAT + MPI_SUM, lengths in units of 4 bytes
	Factor    float64       // throughput factor n_msg; 0 means no throughput column
	TimeScale float64       // reported time = measured time * TimeScale
	NoBytes   bool          // the table has no #bytes column (Barrier, Open_Close)
	Modes     []Mode        // the tables it prints, in order; nil: one table without MODE line
	RMA       *RMASpec      // IMB-EXT benchmarks: the one-sided pattern
	IO        *IOSpec       // IMB-IO benchmarks: the file access
	NBC       *NBCSpec      // IMB-NBC benchmarks: the non-blocking loop (imb/nbc.go)
	RMA3      *RMA3Spec     // IMB-RMA benchmarks: the passive-target loop (imb/rma2021.go)
	// Type is the item type -data_type or -red_data_type gave a copy of
	// the table's entry (types2021.go); the table has the default.
	Type kernel.DataType

	// Since is the IMB that has it first: 0 for IMB 3.0, 2021 for IMB
	// 2021's additions, which run when named (DefaultNames). NotDefault:
	// IMB 2021 too runs it only when named ("non-default" in its -list).
	Since      int
	NotDefault bool
}

// Unit is the length unit: the size of the item type (-data_type,
// -red_data_type), by default sizeof(float) for reductions, else 1 byte.
func (b *Benchmark) Unit() int {
	if b.Type != kernel.TypeDefault {
		return b.Type.Size()
	}
	if b.Reduction {
		return 4
	}
	return 1
}

// Datatype is the MPI datatype of the messages ("-" for Barrier).
func (b *Benchmark) Datatype() string {
	if b.NoBytes {
		return "-"
	}
	if b.Type != kernel.TypeDefault {
		return b.Type.MPIName()
	}
	if b.RMA != nil && b.RMA.Flow == RMAWindowCycle {
		return "MPI_BYTE" // IMB rounds Window's lengths as a reduction's, but it moves bytes
	}
	if b.RMA3 != nil && b.RMA3.Op == kernel.RMA3CAS {
		return "MPI_INT"
	}
	if b.Reduction {
		return "MPI_FLOAT"
	}
	return "MPI_BYTE"
}

// MPI1 is the IMB-MPI1 benchmark table: IMB 3.0's, in IMB's order, then
// IMB 2021's additions (bench2021.go).
var MPI1 = append([]Benchmark{
	{Name: "PingPong", Class: SingleTransfer, Calls: "MPI_Send, MPI_Recv", Kernel: kernel.PingPong, Factor: 1, TimeScale: 0.5},
	{Name: "PingPing", Class: SingleTransfer, Calls: "MPI_Isend/MPI_Wait, MPI_Recv", Kernel: kernel.PingPing, Factor: 1, TimeScale: 1},
	{Name: "Sendrecv", Class: ParallelTransfer, Calls: "MPI_Sendrecv", Kernel: kernel.Sendrecv, Factor: 2, TimeScale: 1},
	{Name: "Exchange", Class: ParallelTransfer, Calls: "MPI_Isend/MPI_Waitall, MPI_Recv", Kernel: kernel.Exchange, Factor: 4, TimeScale: 1},
	{Name: "Bcast", Class: Collective, Calls: "MPI_Bcast", Kernel: kernel.Bcast, TimeScale: 1},
	{Name: "Allgather", Class: Collective, Calls: "MPI_Allgather", Kernel: kernel.Allgather, TimeScale: 1},
	{Name: "Allgatherv", Class: Collective, Calls: "MPI_Allgatherv", Kernel: kernel.Allgatherv, TimeScale: 1},
	{Name: "Alltoall", Class: Collective, Calls: "MPI_Alltoall", Kernel: kernel.Alltoall, TimeScale: 1},
	{Name: "Alltoallv", Class: Collective, Calls: "MPI_Alltoallv", Kernel: kernel.Alltoallv, TimeScale: 1},
	{Name: "Reduce", Class: Collective, Calls: "MPI_Reduce", Kernel: kernel.Reduce, Reduction: true, TimeScale: 1},
	{Name: "Reduce_scatter", Class: Collective, Calls: "MPI_Reduce_scatter", Kernel: kernel.ReduceScatter, Reduction: true, TimeScale: 1},
	{Name: "Allreduce", Class: Collective, Calls: "MPI_Allreduce", Kernel: kernel.Allreduce, Reduction: true, TimeScale: 1},
	{Name: "Barrier", Class: Collective, Calls: "MPI_Barrier", Kernel: kernel.Barrier, TimeScale: 1, NoBytes: true},
}, MPI1From2021...)
