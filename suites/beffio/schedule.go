package beffio

// Sched is the time of one time-driven pattern: T·U/ΣU/3, T being the
// time of one partition. The original takes -T as the time of all
// partitions together and gives each T/partitions (release 2: "30
// minutes for three compute partition sizes"); so does mpibench.
func Sched(total float64, u, partitions int) float64 {
	return total / float64(partitions) * float64(u) / SumU / 3
}

// Segment computes the size-driven part of types 3 and 4 from the
// repeat factors reps (indexed by pattern number) of types 0 to 2 in
// the initial write, as the original does: the k-th pattern of type 3
// (k = 1..7) repeats min(r0·L/l, 10·r1, r2) times, r0 the type 0
// pattern of the same chunk (k, or k+1 after pattern 2, which has L =
// 2 MB and no twin), r1 and r2 the k-th of types 1 and 2; r0·L/l counts
// type 0's calls in chunks of l. The first pattern writes once. The
// segment of a process, Lseg, is the sum of these bytes rounded up to a
// multiple of 1 MB; the fill pattern writes the rest once (maybe 0
// bytes). segReps[k] is the repeat factor of the k-th pattern of types 3
// and 4, fill its chunk size.
func Segment(t []Pattern, reps []int64) (segReps []int64, lseg int64, fill int) {
	t0, t1, t2, t3 := OfType(t, 0), OfType(t, 1), OfType(t, 2), OfType(t, 3)
	segReps = make([]int64, len(t3))
	segReps[0] = 1
	sum := int64(t3[0].Mem)
	for k := 1; k < len(t3)-1; k++ {
		k0 := k
		if k > 1 {
			k0 = k + 1
		}
		r := reps[t0[k0].No] * int64(t0[k0].Mem/t0[k0].L)
		r = min(r, 10*reps[t1[k].No], reps[t2[k].No])
		segReps[k] = max(r, 1)
		sum += segReps[k] * int64(t3[k].Mem)
	}
	lseg = (sum + MB - 1) / MB * MB
	segReps[len(t3)-1] = 1
	return segReps, lseg, int(lseg - sum)
}
