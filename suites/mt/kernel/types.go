package kernel

// Kind is one of IMB-MT's loops.
type Kind int

// The loops, in the order of mt.h.
const (
	PingPong Kind = iota
	PingPing
	SendRecv
	Exchange
	UniBand
	BiBand
	Barrier
	Bcast
	Reduce
	Allreduce
)

// Collective says whether the loop times each call alone (IMB-MT's
// SEPARATE_MEASURING): the collectives.
func (k Kind) Collective() bool { return k >= Barrier }

// The barrier between repetitions (-barrier) and the buffers' placement
// (-malloc_algo), as mt.h numbers them.
const (
	BarrierOff = iota
	BarrierOn
	BarrierSpecial
)

const (
	MallocSerial = iota
	MallocContinuous
	MallocParallel
)

// MaxThreads is the most threads a process runs (MB_MT_MAXTHREADS).
const MaxThreads = 256

// Setup is what a team of threads is made with.
type Setup struct {
	Threads    int
	Multiple   bool // a communicator per thread (MPI_THREAD_MULTIPLE asked for)
	SizeA      int  // bytes of each thread's send buffer
	SizeB      int  // bytes of each thread's receive buffer
	Align      int  // -malloc_align
	MallocAlgo int
	Window     int
}

// Case is one benchmark at one count.
type Case struct {
	Kind    Kind
	Count   int  // elements
	Int     bool // MPI_INT, else MPI_CHAR
	Warmup  int
	Repeat  int
	Window  int
	Stride  int
	Barrier int
	Check   bool
}

// Result is one thread's measurement.
type Result struct {
	Time    float64 // seconds: the timed loop, or the sum of the timed calls
	OK      bool    // the rank took part (IMB-MT's result)
	Defects int64
}
