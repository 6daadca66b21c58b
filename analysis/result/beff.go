package result

// BeffSummary is what the b_eff summary record holds: the result, the
// columns of Table 1 of Rabenseifner and Koniges (2001), and the value of
// every pattern. Bandwidths are in MB/s with MB = 10^6 bytes; memory in
// MB of 2^20 bytes, as the original b_eff prints them.
type BeffSummary struct {
	Beff        float64       `json:"b_eff"`          // logavg(primary, random)
	PerProc     float64       `json:"b_eff_per_proc"` // b_eff / P
	Primary     string        `json:"primary"`        // cartesian or ring: the group averaged with the random one
	PrimaryAvg  float64       `json:"primary_logavg"` // logavg over the primary patterns
	RandomAvg   float64       `json:"random_logavg"`  // logavg over the random patterns
	Procs       int           `json:"procs"`          // P
	MemMB       int           `json:"mem_mb"`         // memory per process
	LMax        int           `json:"lmax"`           // bytes
	Lengths     []int         `json:"lengths"`        // the 21 message lengths
	Looplength  string        `json:"looplength"`     // adaptive or fixed
	Seed        uint64        `json:"seed"`           // of the random patterns
	Random      int           `json:"random"`         // number of random patterns
	PingPong    float64       `json:"pingpong_mbps"`  // ping-pong bandwidth at L_max
	BeffLmax    float64       `json:"b_eff_lmax"`     // b_eff from L_max only
	PerProcLmax float64       `json:"b_eff_lmax_per_proc"`
	PerProcPrim float64       `json:"b_eff_lmax_per_proc_primary"` // at L_max, primary patterns only, / P
	Uname       string        `json:"uname"`                       // uname -a
	Patterns    []BeffPattern `json:"patterns"`
}

// BeffPattern is one pattern's share of b_eff.
type BeffPattern struct {
	Name     string             `json:"name"`
	Group    string             `json:"group"`
	Layout   string             `json:"layout"`
	Messages int                `json:"messages"`
	Avg      float64            `json:"avg_mbps"`    // sum over L of max over methods and reps, / 21
	AtLmax   float64            `json:"lmax_mbps"`   // max over methods and reps at L_max
	Methods  map[string]float64 `json:"method_mbps"` // per method: sum over L of max over reps, / 21
}
