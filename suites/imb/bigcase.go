package imb

import (
	"fmt"
	"slices"
	"strings"

	"mpibench/mpi"
	"mpibench/suites/imb/kernel"
)

// Messages of 2 GiB and more (-msglog up to 32, -msglen lengths up to
// 2^MaxMsgLog). A byte count of 2^31 or more does not fit the int count
// of the kernels of kernels.c, so from 2 GiB on a benchmark runs the
// large-count kernels of mpi/bigcount.c: the same loops, with MPI-4's
// large-count calls or a derived datatype (mpi/bigcount.h says which
// library takes which). Below 2 GiB the int kernels run as always.

// maxBigMsgLog bounds -msglog for mpi1's large-count benchmarks: 4 GiB
// messages, which two ranks of a 24 GiB node can carry. IMB 2021.11's own
// bound is maxMsgLog.
const maxBigMsgLog = 32

// bigCase is benchCase for a plan with lengths of 2 GiB and more. PingPong
// and Bcast keep one buffer: the large-count kernels receive into what they
// send from, and the int kernels of the shorter lengths take their receive
// buffer behind the longest of those lengths in the same memory, so a rank
// holds max(X, 2·x) bytes instead of 2·X.
type bigCase struct {
	*benchCase
	shared bool // recv is a view of send
}

// BigBench tells whether b has a large-count kernel: an MPI-1 kernel
// (the other suites' benchmarks leave Kernel at its zero value).
func BigBench(b *Benchmark) bool {
	return b.NBC == nil && b.IO == nil && b.RMA == nil && b.RMA3 == nil && kernel.BigKernel(b.Kernel)
}

// wantsBig tells whether env's case runs lengths of 2 GiB and more.
func wantsBig(env *caseEnv) bool {
	return BigBench(env.b) && len(env.lens) > 0 && mpi.IsBig(int64(slices.Max(env.lens)))
}

// oneBuffer tells whether the large-count kernel of b uses sbuf alone.
func oneBuffer(b *Benchmark) bool { return b.Kernel == kernel.PingPong || b.Kernel == kernel.Bcast }

// bigBuffers are the send and receive sizes of a bigCase; recv is 0 where
// it shares send's memory (oneBuffer), whose receive view starts at off.
func bigBuffers(b *Benchmark, lens []int, q int) (send, recv, off int) {
	maxLen := slices.Max(lens)
	if !oneBuffer(b) {
		send, recv = BufferSizes(b, maxLen, q)
		return send, recv, 0
	}
	small := 0
	for _, x := range lens {
		if !mpi.IsBig(int64(x)) {
			small = max(small, x)
		}
	}
	off = roundUp(small, 4096) // page-aligned, as a buffer of its own
	return max(maxLen, off+small), 0, off
}

func (c *bigCase) setup() error {
	if !c.active() {
		return nil
	}
	s, r, off := bigBuffers(c.b, c.lens, c.q)
	var err error
	if c.send, err = mpi.Alloc(s); err != nil {
		return err
	}
	if c.shared = oneBuffer(c.b); c.shared {
		c.recv = c.send.View(off, s-off)
	} else if c.recv, err = mpi.Alloc(r); err != nil {
		return err
	}
	if c.counts, err = mpi.Alloc(4 * c.q); err != nil {
		return err
	}
	if c.displs, err = mpi.Alloc(4 * c.q); err != nil {
		return err
	}
	switch {
	case c.check: // the checked loop writes every repetition's content itself
	case c.b.Reduction:
		mpi.PatternFloats(c.send.Float32s(), c.comm.Rank(), 0, 0)
	default:
		mpi.PatternBytes(c.send.Bytes(), c.comm.Rank(), 0, 0)
	}
	maxLen := slices.Max(c.lens)
	run := c.bigRun(maxLen, c.set.Repetitions(maxLen, NoMode))
	run.Barriers = 0
	for i := 0; i < c.f21.warmSweeps(c.set); i++ {
		if _, err := run.Exec(); err != nil {
			return c.warmUpError(err, maxLen)
		}
	}
	return c.syncClocks() // -sync window: the int kernels' lengths
}

// bigRun is the large-count kernel call for x bytes.
func (c *bigCase) bigRun(x, reps int) *kernel.BigRun {
	r := kernel.Run{Kernel: c.b.Kernel, Comm: c.comm, Send: c.send, Recv: c.recv, Reps: reps, Barriers: c.set.NBarr}
	c.f21.setRun(&r, c.b)
	return &kernel.BigRun{Run: r, Items: int64(x / c.b.Unit())}
}

// measure runs lengths below 2 GiB on benchCase's int kernels.
func (c *bigCase) measure(x int, m Mode) (Sample, error) {
	if !c.active() || !mpi.IsBig(int64(x)) {
		return c.benchCase.measure(x, m)
	}
	if c.sync != nil {
		return Sample{}, fmt.Errorf("-sync window: a length of 2 GiB and more (%d bytes) has no window loop; run it with -sync barrier or none", x)
	}
	run := c.bigRun(x, c.reps(x, NoMode))
	if !c.check {
		t, err := run.Exec()
		return Sample{T: t}, err
	}
	t, defects, err := run.ExecCheck()
	return Sample{T: t, Defects: defects}, err
}

func (c *bigCase) free() error {
	if c.shared {
		c.recv = mpi.Buffer{} // memory of send
	}
	return c.benchCase.free()
}

// bigNeed is caseNeed for a bigCase: ok is false for a case of int
// lengths only.
func bigNeed(b *Benchmark, lens []int, q int) (need int, ok bool) {
	if !BigBench(b) || !mpi.IsBig(int64(slices.Max(lens))) {
		return 0, false
	}
	s, r, _ := bigBuffers(b, lens, q)
	return s + r + 2*4*q, true
}

// checkBig refuses lengths of 2 GiB and more where no large-count kernel
// can carry them: in another suite than mpi1, or for a benchmark of mpi1
// without one (Allgather, Alltoall, ...: their buffers hold a message per
// rank, beyond the memory of a node at these lengths).
func checkBig(s *Suite, c *Config) error {
	if c.F.MsgLog == nil || c.F.MsgLog[1] <= maxMsgLog {
		return nil
	}
	flag := fmt.Sprintf(`-msglog "%d:%d"`, c.F.MsgLog[0], c.F.MsgLog[1])
	if c.F.MsgLog[0] == 0 {
		flag = fmt.Sprintf(`-msglog "%d"`, c.F.MsgLog[1])
	}
	if s != MPI1Suite {
		return usagef("%s: lengths above 2^%d (2 GiB and more) are for mpibench mpi1 only", flag, maxMsgLog)
	}
	set := c.F.settings(&s.Settings)
	var cannot []string
	for _, name := range c.Benchmarks {
		b, _ := s.Lookup(name)
		if lens := planLengths(set, c.Lengths, b); !BigBench(b) && mpi.IsBig(int64(slices.Max(lens))) {
			cannot = append(cannot, b.Name)
		}
	}
	if cannot == nil {
		return nil
	}
	return usagef("%s: lengths of 2 GiB and more run for %s only, not for %s; name the benchmarks "+
		"(e.g. mpibench mpi1 -msglog 31:32 PingPong Bcast) or lower the maximum to %d",
		flag, bigNames(s), strings.Join(cannot, ", "), maxMsgLog)
}

// bigNames lists the benchmarks of s with a large-count kernel.
func bigNames(s *Suite) string {
	var names []string
	for _, b := range s.Table {
		if BigBench(&b) {
			names = append(names, b.Name)
		}
	}
	return strings.Join(names, ", ")
}
