package method

// ProcsLinear lists every process count from lo to hi: lo, lo+1, ..., hi.
// This is what SKaMPI does for measurements "varied over the number of
// nodes" (SKaMPI 5's ski files: "for procs = 2 to num_procs"), and it is
// cheap because P is small next to message lengths. Counts below 1 are
// skipped; empty when nothing is left.
func ProcsLinear(lo, hi int) []int {
	var ps []int
	for p := max(lo, 1); p <= hi; p++ {
		ps = append(ps, p)
	}
	return ps
}

// ProcsDoubling lists lo, 2·lo, 4·lo, ... below hi, then hi: the IMB
// style, for machines where every P would take too long. lo below 1 is
// taken as 1; empty when lo > hi.
func ProcsDoubling(lo, hi int) []int {
	lo = max(lo, 1)
	if lo > hi {
		return nil
	}
	var ps []int
	for p := lo; p < hi; p *= 2 {
		ps = append(ps, p)
	}
	return append(ps, hi)
}

// ScaleLinearTo is where ProcsScale stops taking every process count.
const ScaleLinearTo = 64

// ProcsScale lists every count from lo to ScaleLinearTo, then doubles
// (128, 256, ...) below hi, then hi: SKaMPI's linear sweep where a run is
// a node or two, and a sweep of O(log P) points past it, where every
// count would make the sweep O(P) measurements of O(P) processes each.
// It is ProcsLinear up to 64 processes.
func ProcsScale(lo, hi int) []int {
	ps := ProcsLinear(lo, min(hi, ScaleLinearTo))
	if hi <= ScaleLinearTo {
		return ps
	}
	for p := 2 * ScaleLinearTo; p < hi; p *= 2 {
		if p >= lo {
			ps = append(ps, p)
		}
	}
	return append(ps, hi)
}
