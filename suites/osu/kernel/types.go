package kernel

import "mpibench/mpi"

// DDT is -D's derived datatype.
type DDT struct {
	Kind          string // cont, vect, indx
	Stride, Block int
	Displs        []int // indx, in elements
	Blocks        []int
}

// extent is the elements an indexed type reaches (0 for the others,
// which stay within the message).
func (d *DDT) extent() int64 {
	var e int64
	for i := range d.Blocks {
		e = max(e, int64(d.Displs[i]+d.Blocks[i]))
	}
	return e
}

// Spec is one OSU point-to-point measurement at one size.
type Spec struct {
	Kind     mpi.OSUKind
	Type     int   // 0 MPI_CHAR, 1 MPI_INT, 2 MPI_FLOAT
	TypeSize int   // its size
	Elements int64 // elements of the message
	DDT      *DDT
	Iters    int
	Skip     int
	Window   int // messages in flight; 1 for the latency loops
	VWarm    int // -u with -c
	Pairs    int
	Multiple bool // -b multiple: a buffer per window slot
	Check    bool
	Samples  bool // keep each timed iteration's time
	Threads  int  // osu_latency_mt: this rank's threads
	Tagged   bool // osu_latency_mt: more than one sender thread
	// Persistent: the _persistent tests' loops (latency, bw and bibw)
	Persistent bool
	// FanSend and Peers are the fan tests': whether this rank sends (and
	// is timed) and its peers in OSU's order (ranks_queue).
	FanSend bool
	Peers   []int
}

// Type is an element type of OSU's -T for the collectives.
type Type int

// The types of osucoll.h's enum mb_osu_type, in the same order.
const (
	Char Type = iota
	Int
	Float
)

// Size is the type's size in bytes (MPI_CHAR 1, MPI_INT and MPI_FLOAT 4).
func (t Type) Size() int {
	if t == Char {
		return 1
	}
	return 4
}

// Coll describes one pass of an OSU collective test: Skip warm-up and
// Iters timed repetitions.
type Coll struct {
	Comm       mpi.Comm
	Kind       mpi.OSUCollKind
	NB         bool // the non-blocking call and MPI_Wait
	Type       Type
	Send, Recv mpi.Buffer // nprocs·Count elements each
	Count      int        // elements per process (reduce_scatter: in all)
	Counts     mpi.Buffer // per-rank counts (C ints): v-variants and reduce_scatter
	Displs     mpi.Buffer // per-rank displacements (C ints): v-variants
	Skip       int
	Iters      int
	InPlace    bool    // -l
	Root       int     // rooted tests: the root, or -1 to rotate
	Compute    float64 // non-blocking overlap pass: dummy compute seconds; < 0: pure pass
	Probes     int     // overlap pass: MPI_Test calls during the compute (-t)
	Samples    bool    // keep every timed repetition's time
	// ValidationWarmup is -u: in check mode, untimed calls before each
	// repetition.
	ValidationWarmup int
	// DDT is -D: the calls send one derived type made of Elements of Type
	// (Count and Counts are then 1 and Displs in its extents, as OSU's
	// num_elements = omb_ddt_get_size(...) = 1); nil: Type itself.
	DDT      *DDT
	Elements int64
	// Graph is the neighbourhood kinds' distributed graph (nil for the
	// others).
	Graph *Graph
	// Persistent: the _persistent tests' pass (NB false): the request made
	// once (MPI_..._init), then PreBarriers MPI_Barrier calls, MPI_Start
	// and MPI_Wait in every repetition, MPI_Request_free at the end.
	Persistent  bool
	PreBarriers int
}

// Graph is a neighbourhood test's distributed graph communicator
// (MPI_Dist_graph_create_adjacent) and what the check needs of it: this
// rank's sources in the graph's order and, per source, which of that
// source's blocks comes here (its index among the source's destinations).
type Graph struct {
	In, Out int   // this rank's in- and out-degree
	handle  int32 // the communicator's Fortran handle
	srcs    mpi.Buffer
	blocks  mpi.Buffer
}

// The one-sided tests' operations, synchronisations and window creations,
// numbered as osurma.h numbers them (OSU's enum SYNC and enum WINDOW).
const (
	OpPut = iota
	OpGet
)

// Synchronisations (-s), in OSU's order.
const (
	SyncLock = iota
	SyncPSCW
	SyncFence
	SyncFlush
	SyncFlushLocal
	SyncLockAll
)

// Window creations (-w), in OSU's order.
const (
	WinCreate = iota
	WinAllocate
	WinDynamic
)

// Loop shapes: a latency test, a bandwidth test, osu_put_bibw,
// osu_get_mbw, osu_get_multi_lat.
const (
	ShapeLat = iota
	ShapeBW
	ShapeBiBW
	ShapeMBW
	ShapeMulti
)

// RMASpec is one size of an OSU one-sided test.
type RMASpec struct {
	Op, Sync, Win, Shape int
	Size                 int64 // bytes of one operation
	Window               int   // operations per iteration (1 for the latency tests)
	Iters, Skip          int
	PreBarriers          int // OSU's MPI_Barrier calls between the window's creation and the loop
	Pairs                int // osu_get_mbw, osu_get_multi_lat: np / 2
}

// RMAResult is what a rank measured: an origin's seconds of the timed
// iterations (0 on a rank that times nothing) and, on rank 0, each
// iteration's seconds.
type RMAResult struct {
	Time    float64
	Samples []float64
}

// The atomic one-sided tests' operations, numbered as osuatom.h numbers
// them: MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op,
// MPI_Compare_and_swap.
const (
	AtomAcc = iota
	AtomGetAcc
	AtomFOP
	AtomCAS
)

// AtomSpec is one size and datatype of an OSU atomic one-sided test.
type AtomSpec struct {
	Op, Sync, Win int
	Type          int   // 0 MPI_CHAR, 1 MPI_INT, 2 MPI_FLOAT
	Count         int   // elements of one operation
	Bytes         int64 // the window's memory and each buffer
	Iters, Skip   int
	PreWin        int  // OSU's MPI_Barrier calls before the window's creation
	PreLoop       int  // and between its creation and the loop
	Exclusive     bool // lock (and flush's lock) exclusive
	Check         bool // -c: mpibench's verified loop
	// Fill are OSU's initial bytes of the operand, result and compare
	// buffers and the window's memory.
	Fill [4]byte
}

// AtomResult is what a rank measured and, with -c, verified.
type AtomResult struct {
	Time    float64   // rank 0's seconds of the timed iterations
	Samples []float64 // rank 0's seconds of each
	// Trials are the repetitions this rank verified, Failures those with a
	// wrong element, First and Last the first and last of them (1-based).
	Trials, Failures, First, Last int64
}
