package tune

// Measured is one algorithm at one point: its launches' figures or why it
// has none.
type Measured struct {
	Alg
	// Status is "ok", or "failed" when a launch of it exited non-zero (an
	// algorithm the library refuses at this size or process count, or
	// one that crashed); a failed algorithm is left out of the choice.
	Status string `json:"status"`
	// Samples are the launches' t_max in µs (IMB's slowest process), one
	// per launch, in launch order.
	Samples []float64 `json:"samples_us,omitempty"`
	Median  float64   `json:"median_us,omitempty"`
	Error   string    `json:"error,omitempty"`
}

// Choice is tune's verdict at one point of its grid, a line of
// choices.jsonl.
type Choice struct {
	Library string     `json:"library"` // mpi.Flavor: "openmpi", "mpich"
	Coll    string     `json:"coll"`    // IMB name
	NP      int        `json:"np"`
	Bytes   int        `json:"bytes"` // IMB message length
	Algs    []Measured `json:"algs"`  // the default first
	// Winner is the algorithm with the smallest median; P the two-sided
	// rank-sum test of its launches against the default's.
	Winner Alg     `json:"winner"`
	P      float64 `json:"p_value"`
	Alpha  float64 `json:"alpha"`
	// Chosen is Winner when it is significantly faster than the default
	// (P < Alpha), else Default: the library's own choice is kept.
	Chosen Alg `json:"chosen"`
	// Gain is 100·(default median − chosen median)/default median: how
	// much faster the measurement says the choice is (0 when kept).
	Gain float64 `json:"gain_pct"`
	// Why says in words why the default was kept, "" when it was not.
	Why string `json:"why,omitempty"`
}

// Proof is the rerun of one point with the tuning file against the
// library's defaults, a line of proof.jsonl.
type Proof struct {
	Library string  `json:"library"`
	Coll    string  `json:"coll"`
	NP      int     `json:"np"`
	Bytes   int     `json:"bytes"`
	Chosen  Alg     `json:"chosen"` // what the file selects here
	Default Side    `json:"default"`
	Tuned   Side    `json:"tuned"`
	Change  float64 `json:"change_pct"` // 100·(tuned − default)/default medians: negative is faster
	P       float64 `json:"p_value"`
	Alpha   float64 `json:"alpha"`
	// Significant: P < Alpha with enough launches for a verdict.
	Significant bool `json:"significant"`
	// Reverted: the file selected an algorithm here and the proof found
	// it significantly slower than the default, so the final file keeps
	// the default here.
	Reverted bool `json:"reverted,omitempty"`
}

// Side is the launches of one side of a proof.
type Side struct {
	Samples []float64 `json:"samples_us"`
	Median  float64   `json:"median_us"`
}
