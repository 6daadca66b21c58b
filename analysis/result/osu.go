package result

// OSU is what a record of suite "osu" (mpibench osu, OSU Micro-Benchmarks
// 7.4) carries besides the common fields. The common fields of such a
// record: Benchmark is OSU's program name (osu_latency, osu_bw, ...),
// Class its kind (latency, bandwidth, multi-bandwidth, multi-latency,
// collective, non-blocking), NProcs the processes, Bytes the message size
// as OSU prints it, Reps the timed iterations, TAvg the latency in µs
// (OSU's "Latency (us)" or "Avg Latency(us)"), TMin/TMax the minimum and
// maximum over ranks where OSU has them (-f), MBps the bandwidth with
// MB = 10^6 bytes (OSU's "Bandwidth (MB/s)", "MB/s"), MsgRate osu_mbw_mr's
// Messages/s, Window the window (-W) of the bandwidth tests, Check and
// Defects OSU's -c validation (Defects: the errors OSU counts), Samples
// the time of every timed iteration in µs when asked (--samples).
type OSU struct {
	Datatype string `json:"datatype"`           // -T: MPI_CHAR, MPI_INT, MPI_FLOAT
	DDT      string `json:"ddt,omitempty"`      // -D: cont, vect:STRIDE:BLOCK, indx:FILE
	Transmit int64  `json:"transmit,omitempty"` // -D: OSU's "Transmit Size", bytes the derived type carries
	Warmup   int    `json:"warmup"`             // warm-up iterations (OSU's skip) at this size
	// Validation is OSU's column with -c: "Pass" or "Fail".
	Validation string `json:"validation,omitempty"`
	// Tail is -z: OSU's percentiles of the per-iteration figures (µs for
	// the latency tests, MB/s for the bandwidth tests), in -z's order.
	Tail    []Percentile `json:"tail,omitempty"`
	Pairs   int          `json:"pairs,omitempty"`    // osu_mbw_mr, osu_multi_lat: the pairs
	InPlace bool         `json:"in_place,omitempty"` // -l: MPI_IN_PLACE
	NBC     *OSUNBC      `json:"nbc,omitempty"`      // non-blocking collectives: result/osucoll.go
	// Win is a one-sided test's -w: how its window was created (create,
	// allocate, dynamic).
	Win string `json:"win,omitempty"`
	// Sync is a one-sided test's -s: how its epochs were synchronised
	// (lock, pscw, fence, flush, flush_local, lock_all).
	Sync string `json:"sync,omitempty"`
	// Nodes and PPN are the fan tests' (osu_bw_fan_in, osu_bw_fan_out):
	// the nodes (distinct processor names) and the processes per node.
	Nodes int `json:"nodes,omitempty"`
	PPN   int `json:"ppn,omitempty"`
	// ForksSender and ForksReceiver are osu_latency_mp's processes forked
	// by rank 0 and rank 1 (-t S:R).
	ForksSender   int `json:"forks_sender,omitempty"`
	ForksReceiver int `json:"forks_receiver,omitempty"`
}

// Percentile is one of -z's figures: P the percentile, Value the figure.
type Percentile struct {
	P     int     `json:"p"`
	Value float64 `json:"value"`
}

// osu reads a record's "osu" object for the fast parser (decode.go),
// as encoding/json would: into the OSU *v points to, made if nil.
func (p *parser) osu(v **OSU, prev *OSU) bool {
	if *v == nil {
		*v = &OSU{}
	}
	if prev == nil {
		prev = &OSU{}
	}
	o := *v
	return p.object(func(k []byte) bool {
		switch string(k) {
		case "datatype":
			return p.str(&o.Datatype, prev.Datatype)
		case "ddt":
			return p.str(&o.DDT, prev.DDT)
		case "validation":
			return p.str(&o.Validation, prev.Validation)
		case "transmit":
			return p.int64(&o.Transmit)
		case "warmup":
			return p.int(&o.Warmup)
		case "pairs":
			return p.int(&o.Pairs)
		case "in_place":
			return p.bool(&o.InPlace)
		case "tail":
			return p.tail(&o.Tail)
		case "nbc":
			return p.osuNBC(&o.NBC) // result/osucoll.go
		case "win":
			return p.str(&o.Win, prev.Win)
		case "sync":
			return p.str(&o.Sync, prev.Sync)
		case "nodes":
			return p.int(&o.Nodes)
		case "ppn":
			return p.int(&o.PPN)
		case "forks_sender":
			return p.int(&o.ForksSender)
		case "forks_receiver":
			return p.int(&o.ForksReceiver)
		}
		return false
	})
}

// tail reads -z's percentiles, a new slice as encoding/json makes it.
func (p *parser) tail(v *[]Percentile) bool {
	out := []Percentile{}
	ok := p.array(func() bool {
		var e Percentile
		ok := p.object(func(k []byte) bool {
			switch string(k) {
			case "p":
				return p.int(&e.P)
			case "value":
				return p.float(&e.Value)
			}
			return false
		})
		out = append(out, e)
		return ok
	})
	*v = out
	return ok
}
