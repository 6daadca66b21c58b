// Package mt is mpibench mt: IMB-MT 2021.11 (src_cpp/MT of the Intel MPI
// Benchmarks), the MPI-1 operations run at once by several threads of
// every process under MPI_THREAD_MULTIPLE, each thread on a duplicate of
// MPI_COMM_WORLD of its own: PingPongMT, PingPingMT, SendRecvMT,
// ExchangeMT, UniBandMT, BiBandMT, BarrierMT, BcastMT, ReduceMT and
// AllReduceMT. It is a package of its own: IMB-MT has its own flags
// (-count, -repeat, -warmup, -window_size, -barrier, -malloc_*), its own
// timing (no repetition rule, no process-count sweep), its own
// aggregation over threads and ranks and its own output.
package mt

import (
	"strings"

	"mpibench/suites/mt/kernel"
)

// Column is one of IMB-MT's output columns (MT_benchmark.h, the OUT_*
// flags).
type Column int

// The columns, in IMB-MT's order.
const (
	ColBytes Column = iota
	ColRepeat
	ColTMin
	ColTMax
	ColTAvg
	ColBW           // Mbytes/sec from t_max
	ColBWCumulative // Mbytes/sec of every pair at once
	ColMsgRateCumulative
)

var columnTitles = [...]string{"#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]",
	"Mbytes/sec", "Mbytes/sec", "Msg/sec"}

// Benchmark is one of IMB-MT's benchmarks with the flags of its
// init_flags (MT_benchmark.cpp).
type Benchmark struct {
	Name    string
	Kind    kernel.Kind
	Calls   string // the MPI calls it is based on
	Window  bool   // WINDOW: -window_size messages per repetition, "# window_size" in the header
	Divide  float64
	BWScale float64 // SCALE_BW_TWICE, SCALE_BW_FOUR
	RecvTwo bool    // RECV_FROM_2: two receive buffers (ExchangeMT)
	NoBytes bool    // SEND_0: count 0 only, no #bytes column (BarrierMT)
	Columns []Column
}

var (
	p2pCols  = []Column{ColBytes, ColRepeat, ColTMin, ColTMax, ColTAvg, ColBW}
	bandCols = []Column{ColBytes, ColRepeat, ColTAvg, ColBWCumulative, ColMsgRateCumulative}
	collCols = []Column{ColBytes, ColRepeat, ColTMin, ColTMax, ColTAvg}
)

// Table is IMB-MT's benchmarks in its default order (the order they are
// declared in MT_benchmark.cpp). The Divide of a windowed benchmark is
// further multiplied by -window_size.
var Table = []*Benchmark{
	{Name: "PingPongMT", Kind: kernel.PingPong, Calls: "MPI_Send, MPI_Recv", Divide: 2, BWScale: 1, Columns: p2pCols},
	{Name: "PingPingMT", Kind: kernel.PingPing, Calls: "MPI_Isend, MPI_Recv, MPI_Wait", Divide: 1, BWScale: 1, Columns: p2pCols},
	{Name: "SendRecvMT", Kind: kernel.SendRecv, Calls: "MPI_Sendrecv", Divide: 1, BWScale: 2, Columns: p2pCols},
	{Name: "ExchangeMT", Kind: kernel.Exchange, Calls: "MPI_Isend, MPI_Recv, MPI_Waitall", Divide: 1, BWScale: 4,
		RecvTwo: true, Columns: p2pCols},
	{Name: "UniBandMT", Kind: kernel.UniBand, Calls: "MPI_Isend, MPI_Irecv, MPI_Waitall", Window: true, Divide: 1,
		BWScale: 1, Columns: bandCols},
	{Name: "BiBandMT", Kind: kernel.BiBand, Calls: "MPI_Isend, MPI_Irecv, MPI_Waitall", Window: true, Divide: 2,
		BWScale: 1, Columns: bandCols},
	{Name: "BarrierMT", Kind: kernel.Barrier, Calls: "MPI_Barrier", Divide: 1, BWScale: 1, NoBytes: true,
		Columns: []Column{ColRepeat, ColTMin, ColTMax, ColTAvg}},
	{Name: "BcastMT", Kind: kernel.Bcast, Calls: "MPI_Bcast", Divide: 1, BWScale: 1, Columns: collCols},
	{Name: "ReduceMT", Kind: kernel.Reduce, Calls: "MPI_Reduce", Divide: 1, BWScale: 1, Columns: collCols},
	{Name: "AllReduceMT", Kind: kernel.Allreduce, Calls: "MPI_Allreduce", Divide: 1, BWScale: 1, Columns: collCols},
}

// Lookup finds a benchmark by name, case-insensitively as IMB 2021 does.
func Lookup(name string) (*Benchmark, bool) {
	for _, b := range Table {
		if strings.EqualFold(b.Name, name) {
			return b, true
		}
	}
	return nil, false
}

// Class is the benchmark's class in `mpibench list` and the records.
func (b *Benchmark) Class() string {
	if b.Kind.Collective() {
		return "collective"
	}
	return "pt2pt"
}
