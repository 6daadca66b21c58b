package imb

// RMASpec describes an IMB-EXT one-sided benchmark (filled by the EXT work).
type RMASpec struct{}

// EXT is the IMB-EXT benchmark table, in IMB's order.
var EXT = []Benchmark{}

func newRMACase(env *caseEnv) runner { panic("IMB-EXT: not yet") }
