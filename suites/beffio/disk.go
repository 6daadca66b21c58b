package beffio

// The disk bound (issue 12, section 3). The time-driven write loops of
// b_eff_io have no size of their own: on a fast file system a default run
// wrote 95 GB. So every time-driven pattern also stops at a number of
// calls derived from the run's disk limit (-disk, or min(16 GiB, half the
// free space)), whichever comes first; the size-driven types 3 and 4 and
// the rewrite and read follow from those counts. All files of all
// partitions exist at once (every partition writes before any reads, and
// the read deletes them), so the limit is shared among them:
//
//   - one partition of n processes gets B = (limit - reserve) / partitions;
//   - F is what its files take with one call per pattern (the least any
//     run writes), 2·n·1 MB more for the rounding of the segments;
//   - each U unit of a time-driven pattern gets c = (B - F) / ΣU bytes:
//     the pattern makes at most max(1, ⌊c·U / (n·L)⌋) calls.
//
// Types 0-2 then take at most F + 44c and each of types 3 and 4, whose
// counts are at most those of type 2 (U = 10 of it), at most its bytes
// plus 1 MB of rounding per process, so the files stay within B: the
// need of the plan is below the limit unless even one call per pattern
// does not fit. The reserve is the largest call of the run on all its
// processes: a file system with less free than that is taken as full
// (see diskcheck.Full), and a plan that fits leaves at least that much.

// maxLimit caps the limit at 1 EiB, far beyond any file system, so that
// the byte counts of the plan stay far from int64's end.
const maxLimit = 1 << 60

// Bound sets the call bounds of the time-driven patterns for a run that
// may write at most limit bytes of files.
func (p *Plan) Bound(limit int64) {
	limit = min(limit, maxLimit)
	p.MaxReps = make([][]int64, len(p.Partitions))
	budget := (limit - p.Reserve()) / int64(len(p.Partitions))
	for pi, n := range p.Partitions {
		ones := p.ones()
		c := float64(budget-p.files(n, ones)-2*int64(n)*MB) / SumU
		reps := make([]int64, len(p.Table))
		for _, pt := range p.Table {
			reps[pt.No] = 1
			if pt.Type <= 2 && pt.U > 0 && c > 0 {
				reps[pt.No] = max(1, int64(c*float64(pt.U)/float64(n*pt.Mem)))
			}
		}
		p.MaxReps[pi] = reps
	}
}

// ones is one call for every pattern.
func (p *Plan) ones() []int64 {
	reps := make([]int64, len(p.Table))
	for i := range reps {
		reps[i] = 1
	}
	return reps
}

// Reserve is the largest call of the run on all the processes of a
// partition: the free space below which the file system counts as full.
func (p *Plan) Reserve() int64 {
	return int64(maxOf(p.Partitions)) * int64(MaxMem(p.Table))
}

// DiskNeed is the most the files of the plan can take at once, with the
// reserve; Bound must have run.
func (p *Plan) DiskNeed() int64 {
	need := p.Reserve()
	for pi, n := range p.Partitions {
		need += p.files(n, p.MaxReps[pi])
	}
	return need
}

// files is the size of the five files of a partition of n processes whose
// time-driven patterns make reps calls (by pattern number): types 0-2
// n·L·reps each, types 3 and 4 n segments as Segment computes them.
func (p *Plan) files(n int, reps []int64) int64 {
	var bytes int64
	for _, pt := range p.Table {
		if pt.Type <= 2 {
			bytes += int64(n) * int64(pt.Mem) * reps[pt.No]
		}
	}
	_, lseg, _ := Segment(p.Table, reps)
	return bytes + 2*int64(n)*lseg
}

func maxOf(v []int) int {
	m := 0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
