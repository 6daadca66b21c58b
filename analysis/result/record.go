// Package result holds the Record, the one structured form of every
// measurement mpibench makes, and reads and writes Records as JSON Lines.
// Text tables, CSV and plots are renderers of Records, never the reverse.
package result

import (
	"encoding/json"
	"fmt"
	"io"

	"mpibench/analysis/stats"
)

// Context identifies the run a Record belongs to.
type Context struct {
	Tool        string   `json:"tool"`         // "mpibench <version>"; releases before 2026-11 also wrote "mpibench-imb <version>"
	Start       string   `json:"start"`        // RFC 3339 start time of the run
	Host        string   `json:"host"`         // MPI_Get_processor_name of rank 0
	Hosts       []string `json:"hosts"`        // distinct processor names, rank order of first appearance
	MPI         string   `json:"mpi"`          // flavor the binary was built for: openmpi or mpich
	MPIVersion  string   `json:"mpi_version"`  // MPI_Get_version
	MPILibrary  string   `json:"mpi_library"`  // MPI_Get_library_version, first line
	ThreadLevel string   `json:"thread_level"` // provided by MPI_Init_thread
	Procs       int      `json:"procs"`        // size of MPI_COMM_WORLD
	Args        []string `json:"args"`         // command line after the program name
	Machine     string   `json:"machine"`      // uname: machine, system, release, version
	System      string   `json:"system"`
	Release     string   `json:"release"`
	Version     string   `json:"version"`
	// Options are IMB 2021's flags an IMB run was given (imb/flags2021.go,
	// Flags2021), in IMB's spelling: "msglog": "3:10"; in p2p IMB-P2P's,
	// as typed (p2p.Config.Options).
	Options map[string]string `json:"options,omitempty"`
	// IMB is the IMB whose definitions ran: "3.0" or "2021" (-imb 2021,
	// and the suites IMB 3.0 does not have, p2p among them); empty outside
	// IMB.
	IMB string `json:"imb,omitempty"`

	// SlowPct is links' -slow, the percentage by which a pair flagged
	// slow is worse than its row's or column's median; nil outside links
	// and in records written before it was recorded.
	SlowPct *float64 `json:"slow_pct,omitempty"`

	// SKaMPI run identity: the configuration's node, network and user.
	Node    string `json:"node,omitempty"`
	Network string `json:"network,omitempty"`
	User    string `json:"user,omitempty"`
}

// Record is one row of a result table: one benchmark at one message length
// on one process layout.
type Record struct {
	Suite     string  `json:"suite"`          // mpi1, ext, io, ...
	Benchmark string  `json:"benchmark"`      // e.g. PingPong
	Class     string  `json:"class"`          // single, parallel, collective
	Multi     int     `json:"multi"`          // -1 primary, 0 or 1 the -multi output flag
	Group     int     `json:"group"`          // group index with -multi 1, else -1
	NProcs    int     `json:"np"`             // active processes per group (Q)
	Groups    [][]int `json:"groups"`         // world ranks of each group, in communicator order; version 2 leaves out those np, map and multi describe
	Map       []int   `json:"map,omitempty"`  // -map PxQ as [P, Q]
	Bytes     int     `json:"bytes"`          // message length X
	Reps      int     `json:"reps"`           // n_sample
	TMin      float64 `json:"t_min_us"`       // µs, over the active ranks
	TMax      float64 `json:"t_max_us"`       // µs
	TAvg      float64 `json:"t_avg_us"`       // µs
	MBps      float64 `json:"mbytes_per_sec"` // throughput from TMax, MB = 2^20 bytes (p2p and IMB 2021's benchmarks: 10^6); 0 for collectives
	Check     bool    `json:"check"`          // results-checking mode: not valid benchmark data
	Defects   float64 `json:"defects"`        // wrong items found in -check mode
	Mode      string  `json:"mode,omitempty"` // aggregate / non-aggregate / non-blocking
	Case      string  `json:"case,omitempty"` // journal key of the measured case this record belongs to

	// CountMode is how a message of 2 GiB and more was passed
	// (mpi/bigcount.h): "int" (a count that fits in int, e.g. floats of a
	// reduction), "mpi4-large-count" (MPI_Send_c, ...) or "derived-type".
	CountMode string `json:"count_mode,omitempty"`

	// IMB-MPI4 (suite "mpi4"): the calls measured, with the *_init call's
	// prefix as built (MPI_ or Open MPI's MPIX_).
	Calls string `json:"calls,omitempty"`

	// Non-blocking IMB-IO rows (section 4.2.5.2) and IMB-NBC (suite
	// "nbc"): t_min/t_max/t_avg are the overlapped times, and IMB-IO's
	// Mbytes/sec comes from t_pure.
	OverlapFigures `json:"overlap,omitzero"` // the overlap figures (version 3; flat on the record before)

	// b_eff (suite "beff"): one record per b(pat,L,mthd,rep) with
	// Benchmark the pattern, Class its group (cartesian, ring, random,
	// analysis), Mode the method, Bytes L, Reps the looplength, Messages
	// the messages of one execution of the pattern and TMin/TMax/TAvg the
	// loop time over processes (with -check, Check and Defects the data
	// check's verdict); then one summary record (Benchmark "b_eff", Class
	// "summary") carrying BeffSummary.
	BeffFigures `json:"b_eff,omitzero"` // b_eff's own figures (version 3; flat on the record before)
	Messages    int                     `json:"messages,omitempty"` // b_eff: total messages of one execution of the pattern; p2p: of the timed loop

	// b_eff_io (suite "beffio"): one record per pattern and access method
	// with Benchmark the pattern number of Table 2 ("p00".."p42"), Class
	// its type (scatter, shared, separated, segmented, seg_coll), Mode the
	// access method (write, rewrite, read), NProcs the partition, Bytes
	// the chunk l on disk, Reps the repeat factor and TMax the time from
	// the barrier before the first call to the barrier after the last (and
	// after MPI_File_sync); one record per type and access (Benchmark
	// "total") whose TMax runs from before the open to after the close;
	// last the summary record (Benchmark "b_eff_io", Class "summary").
	BeffIOFigures `json:"b_eff_io,omitzero"` // b_eff_io's own figures (version 3; flat on the record before)

	// SKaMPI (suite "skampi"): one record per measured point, with
	// Benchmark the measurement's name (e.g. "Pingpong_Send_Recv"), Class
	// its pattern (pingpong, collective, master-worker, simple), NProcs the
	// processes, Bytes the message length, Reps the repetitions taken;
	// Stats holds the figures in µs after the empty-measurement
	// correction, Samples the raw (uncorrected) time of every repetition
	// in µs unless the run dropped them (-samples=false). TMin/TMax/TAvg
	// are left out: one process times, there is no spread over ranks.
	SkampiFigures `json:"skampi,omitzero"` // SKaMPI's own figures, on every SKaMPI record (version 3; flat on the record before)
	Stats         *stats.Summary           `json:"stats,omitempty"`        // n, mean, trimmed mean and standard errors, min, median, max (SKaMPI, PGMPI)
	TimeLimit     float64                  `json:"time_limit_s,omitempty"` // the bound on the sum of the samples (s; negative: none; IMB: -time per sample)

	// merge: the number of records `mpibench merge` took the median of
	// (one per run that had this measurement); 0 for a record of one run.
	Merged int `json:"merged,omitempty"`

	// PGMPI (suite "pgmpi"): one record per call, size and launch, with
	// Benchmark the call (an MPI function such as "MPI_Allgather" or a
	// mock-up such as "Gather_as_Allgather"), Bytes the communication
	// volume n, NProcs the processes, Reps the repetitions, Stats their
	// summary and Samples every repetition's time.
	Launch  int       `json:"launch,omitempty"`     // 1-based index of the mpirun launch
	Samples []float64 `json:"samples_us,omitempty"` // raw per-repetition times, µs

	// guideline (suite "pgmpi", Class "violation"): one record per
	// violation `mpibench guidelines check` found, with Benchmark the MPI
	// function, NProcs the processes and Bytes the size it shows at (n of
	// a pattern guideline, the larger size m_j of GL1 and GL2); TMax and
	// TMin are the medians over launches of the slower and the faster
	// side in µs.
	Violation `json:"violation,omitzero"` // the violation's own figures (version 3; flat on the record before)

	// The message rate, messages per second: IMB-P2P's Msg/sec (suite
	// "p2p": one record per benchmark and length, with Class the pattern,
	// Reps IMB-P2P's iterations, Messages the messages of the timed loop,
	// TAvg its t[usec] (TMin, TMax: the same with the fastest and the
	// slowest rank's time), MBps its Mbytes/sec, MB = 10^6 bytes), and
	// IMB-MPI1 2021's Uniband and Biband Msg/sec, messages of all pairs per
	// second from TMax, with the window (-window_size) it was measured
	// with; MBps is then MsgRate*Bytes/10^6.
	MsgRate float64 `json:"msg_rate,omitempty"`
	Window  int     `json:"window,omitempty"`

	// IMB-MT (suite "mt"): one record per benchmark and count, with Bytes
	// IMB-MT's #bytes (count x datatype size x threads), NProcs the
	// processes that took part, Reps -repeat, TMin/TMax/TAvg IMB-MT's
	// figures over every thread of every rank, MBps its Mbytes/sec (the
	// band benchmarks': of every pair at once), MsgRate their Msg/sec and
	// Window -window_size; Threads the threads of each process.
	Threads int `json:"threads,omitempty"`

	// OSU (suite "osu"): result/osu.go.
	OSU *OSU `json:"osu,omitempty"`
	// links (suite "links"), records version 2: one record per figure
	// and measuring rank (result/links.go).
	Links *Links `json:"links,omitempty"`
	// links (suite "links") in records version 1: one record per ordered
	// pair of ranks and figure, Benchmark "links", Class "pair", Mode send, recv or latency,
	// Groups [[src, dst]] (the sender first), Bytes the message length,
	// Reps the iterations, Window the messages in flight, TMin/TAvg/TMax
	// the time per message over the iterations (latency: half the round
	// trip) and MBps Bytes/TAvg with MB = 2^20 bytes, as mpiGraph.
	PairHosts []string `json:"pair_hosts,omitempty"` // processor names of src and dst
	// -sync (mpi1 and nbc collectives, skampi's collective pattern).
	Starts `json:"starts,omitzero"` // how the repetitions were started (version 3; flat on the record before)

	// A case that measured nothing (IMB: a length whose buffers do not
	// fit, left out as IMB 2021's -mem leaves it out): Skip says why,
	// "memory", with what one process would have needed and the bound
	// it exceeds (-mem, or the node's available memory per process),
	// in bytes. Its figures are 0 and no reader takes them for a
	// measurement (Skipped).
	Skip       string `json:"skipped,omitempty"`     // why: "memory" (SkipMemory)
	NeedBytes  int64  `json:"need_bytes,omitempty"`  // what one process would need, bytes
	LimitBytes int64  `json:"limit_bytes,omitempty"` // the bound it exceeds, bytes

	// A case that measured less than its definition asked (issue 26):
	// Cut says what cut it, CutTime (IMB 2021's -time rule lowered the
	// repetitions, RepsAsked the count the definition gave) or CutDisk
	// (a time-driven b_eff_io pattern stopped at the -disk bound before
	// its scheduled time). Its figures are a measurement, of less.
	Cut       string `json:"cut,omitempty"`
	RepsAsked int    `json:"reps_asked,omitempty"`

	// Run is the run's header in records version 2 and 3 (RunHeader.Run):
	// a reader replaces it with the header's context and sets it to 0.
	Run     int     `json:"run,omitempty"`
	Context Context `json:"context"` // version 1 only: on every line
}

// OverlapFigures are the figures of a non-blocking benchmark of IMB-IO
// (section 4.2.5.2) or IMB-NBC, whose t_min/t_max/t_avg are the
// overlapped times (IMB-IO's Mbytes/sec comes from t_pure). Record key
// "overlap" in records version 3, flat on the record before.
type OverlapFigures struct {
	TOvrl     float64 `json:"t_ovrl_us,omitempty"`   // max over ranks of the overlapped time
	TPure     float64 `json:"t_pure_us,omitempty"`   // max over ranks of the blocking time
	TCPU      float64 `json:"t_cpu_us,omitempty"`    // calibrated CPU_Exploit time
	Overlap   float64 `json:"overlap_pct,omitempty"` // 100·(t_pure+t_CPU−t_ovrl)/min(t_pure,t_CPU), not clamped
	CPUMflops float64 `json:"cpu_mflops,omitempty"`  // CPU_Exploit's undisturbed rate
}

// BeffFigures are b_eff's own figures (suite "beff"). Record key "b_eff"
// in records version 3, flat on the record before.
type BeffFigures struct {
	Rep   int          `json:"rep,omitempty"`    // repetition 1..3
	BMBps float64      `json:"b_mbps,omitempty"` // b = L·messages·looplength/TMax, MB = 10^6 bytes
	Seed  uint64       `json:"seed,omitempty"`   // seed of the random patterns
	Tries int          `json:"tries,omitempty"`  // measurements taken, the last one recorded (adaptive looplength: 1 + retunes)
	Beff  *BeffSummary `json:"beff,omitempty"`   // the summary record's figures
}

// BeffIOFigures are b_eff_io's own figures (suite "beffio"). Record key
// "b_eff_io" in records version 3, flat on the record before.
type BeffIOFigures struct {
	MemBytes int            `json:"mem_bytes,omitempty"` // L: contiguous chunk in memory
	Units    int            `json:"units,omitempty"`     // U of Table 2
	Pos      int            `json:"pos,omitempty"`       // row of the chunk-size table; 0 none
	IOBytes  int64          `json:"io_bytes,omitempty"`  // bytes moved by all processes
	SchedSec float64        `json:"sched_s,omitempty"`   // scheduled time of a time-driven pattern
	IOMBps   float64        `json:"io_mbps,omitempty"`   // IOBytes / TMax, MB = 10^6 bytes
	BeffIO   *BeffIOSummary `json:"beffio,omitempty"`    // the summary record's figures
}

// SkampiFigures are SKaMPI's own figures of a measured point (suite
// "skampi"). Record key "skampi" in records version 3, flat on the record
// before. A SKaMPI record always has it, and in it reached, rel_err
// (null when the trimmed mean is not positive) and correction_us, also
// when false, null or 0.
type SkampiFigures struct {
	Param      string   `json:"param,omitempty"`         // the varied parameter: bytes, procs, workpieces, none
	X          int      `json:"x,omitempty"`             // its value at this point
	Epsilon    float64  `json:"epsilon,omitempty"`       // requested relative standard error
	Reached    bool     `json:"reached,omitempty"`       // the precision rules held when the repetitions stopped
	RelErr     *float64 `json:"rel_err,omitempty"`       // the stopping rule's figure: trimmed standard error / trimmed mean of the raw samples
	Correction float64  `json:"correction_us,omitempty"` // the empty measurement subtracted, µs
	Stop       string   `json:"stop,omitempty"`          // why the repetitions ended: epsilon, max_reps, time_limit
	MinReps    int      `json:"min_reps,omitempty"`      // the policy: bounds on the repetitions (the bound on their time is the record's time_limit_s)
	MaxReps    int      `json:"max_reps,omitempty"`
	Tick       float64  `json:"tick_us,omitempty"` // MPI_Wtick of the timing process (µs)
}

// Violation is a guideline violation's own figures (suite "pgmpi", Class
// "violation"). Record key "violation" in records version 3, flat on the
// record before.
type Violation struct {
	Guideline string  `json:"guideline,omitempty"`  // id in the guideline file, e.g. GL3
	Kind      string  `json:"kind,omitempty"`       // monotony, split-robustness, pattern
	Against   string  `json:"against,omitempty"`    // pattern: the mock-up
	FromBytes int     `json:"from_bytes,omitempty"` // GL1, GL2: the smaller size m_i
	Factor    int     `json:"factor,omitempty"`     // GL2: k, the smallest with k·m_i ≥ m_j
	Test      string  `json:"test,omitempty"`       // wilcoxon or ks, one-sided; median: GL2 by the median rule
	Tolerance float64 `json:"tolerance,omitempty"`  // GL2: the fraction T(m_j) had to exceed k·T(m_i) by
	PValue    float64 `json:"p_value,omitempty"`
	Alpha     float64 `json:"alpha,omitempty"`
}

// Starts is how the repetitions of a collective were started with -sync
// (mpi1 and nbc collectives, skampi's collective pattern): the method
// (barrier, none, window) and, with window, the window W between two
// repetitions' starts, the clock synchronisation's estimated error
// (clocksync: the largest over the ranks of the fit's |residual| + round
// trip/2, summed along the tree), and the repetitions every rank began in
// time (valid, timed) and those some rank began late (invalid, excluded;
// written also when 0); start_lag_s is the median over all repetitions of
// the latest rank's start lag (its first clock reading at or after the
// start minus the start). Record key "starts" in records version 3, flat
// on the record before.
type Starts struct {
	Sync        string  `json:"sync,omitempty"`
	WindowS     float64 `json:"window_s,omitempty"`
	ClockErr    float64 `json:"clock_error_s,omitempty"`
	ValidReps   int     `json:"valid_reps,omitempty"`
	InvalidReps *int    `json:"invalid_reps,omitempty"`
	StartLag    float64 `json:"start_lag_s,omitempty"`
}

// SkipMemory is Skip of a case left out because its buffers do not fit.
const SkipMemory = "memory"

// Cuts (Record.Cut).
const (
	CutTime = "time" // IMB's -time bound lowered the repetitions
	CutDisk = "disk" // b_eff_io's -disk bound stopped a time-driven pattern
)

// Skipped tells whether r is a case that measured nothing (Skip): a
// line in its table, never a zero-time measurement.
func (r *Record) Skipped() bool { return r.Skip != "" }

// Schema is the version of the records this mpibench writes. Version 3
// (2026-11-29) puts the figures of one suite or one method in an object
// of their own (OverlapFigures "overlap", BeffFigures "b_eff",
// BeffIOFigures "b_eff_io", SkampiFigures "skampi", Violation
// "violation", Starts "starts"), where version 2 had them flat on the
// record. Version 2 (2026-11-28) writes the run's context once, in a
// header line, and leaves out groups that a record's description gives
// back; version 1 (no header) carried both on every line. Readers take
// all three, and a line in either shape under a header of either
// version 2 or 3.
const Schema = 3

// RunHeader is the header line of records version 2 and 3: it comes before the
// first record of a run in a file, and every record of the run refers to
// it by Run. A file may hold several (runs appended, merge's output); a
// record belongs to the latest header before it with its Run.
type RunHeader struct {
	Schema  int     `json:"schema"`  // records version: 2 or 3
	Run     int     `json:"run"`     // the id the run's records give as run, from 1
	Context Context `json:"context"` // the run's context, once
}

// MarshalJSON writes a Record whole, its context and its groups on the
// line as version 1 did, its suite's figures in the objects of version 3.
// In a results file (Writer, version 3) a record's line leaves out its
// context, which its run's header holds, and leaves out groups where np,
// map and multi describe them on the header's procs (IMB's layout: the
// first np ranks, or -map's order, or -multi's groups); pairs are listed,
// and [] says "none" where a suite always has groups. A SKaMPI record
// always has its "skampi" object, and in it reached, rel_err (null when
// the trimmed mean is not positive) and correction_us, so that a false,
// an undefined error or a zero correction shows as such, and never
// t_min_us/t_max_us/t_avg_us, which only one timing process cannot fill.
// Other records are written field by field as tagged, a group of figures
// left out when all of its fields are zero.
func (r Record) MarshalJSON() ([]byte, error) { return marshalRecord(&r, 0, nil) }

// marshalRecord writes r with the fields of its suite. run 0 writes the
// whole record; run > 0 a line of version 3, which refers to its header
// by run, leaves the context out, and holds groups only when not nil
// (nil: described, left out; an empty list: none).
func marshalRecord(r *Record, run int, groups *[][]int) ([]byte, error) {
	type plain Record // plain has no methods: no recursion
	p := plain(*r)
	p.Run = run
	// A field nearer the top hides the embedded ones of the same name
	// (at the same depth both would be dropped): the record's own
	// fields sit one level below the shadows.
	type deep struct{ plain }
	type v2 struct {
		Context *Context `json:"context,omitempty"`
		Groups  *[][]int `json:"groups,omitempty"`
	}
	// SKaMPI's figures with reached, rel_err and correction_us always.
	type skampiFigures struct {
		SkampiFigures
		Reached    bool     `json:"reached"`
		RelErr     *float64 `json:"rel_err"`
		Correction float64  `json:"correction_us"`
	}
	type skampi struct {
		TMin    *float64      `json:"t_min_us,omitempty"`
		TMax    *float64      `json:"t_max_us,omitempty"`
		TAvg    *float64      `json:"t_avg_us,omitempty"`
		Figures skampiFigures `json:"skampi"`
	}
	sk := skampi{Figures: skampiFigures{SkampiFigures: r.SkampiFigures,
		Reached: r.Reached, RelErr: r.RelErr, Correction: r.Correction}}
	switch {
	case run == 0 && r.Suite != SuiteSkampi:
		return json.Marshal(p)
	case run == 0:
		return json.Marshal(struct {
			deep
			skampi
		}{deep{p}, sk})
	case r.Suite != SuiteSkampi:
		return json.Marshal(struct {
			deep
			v2
		}{deep{p}, v2{Groups: groups}})
	}
	return json.Marshal(struct {
		deep
		v2
		skampi
	}{deep{p}, v2{Groups: groups}, sk})
}

// flatFigures are the keys of the figures version 3 puts in objects, as
// versions 1 and 2 wrote them: flat on the record.
type flatFigures struct {
	TOvrl     *float64 `json:"t_ovrl_us"`
	TPure     *float64 `json:"t_pure_us"`
	TCPU      *float64 `json:"t_cpu_us"`
	Overlap   *float64 `json:"overlap_pct"`
	CPUMflops *float64 `json:"cpu_mflops"`

	Rep   *int         `json:"rep"`
	BMBps *float64     `json:"b_mbps"`
	Seed  *uint64      `json:"seed"`
	Tries *int         `json:"tries"`
	Beff  *BeffSummary `json:"beff"`

	MemBytes *int           `json:"mem_bytes"`
	Units    *int           `json:"units"`
	Pos      *int           `json:"pos"`
	IOBytes  *int64         `json:"io_bytes"`
	SchedSec *float64       `json:"sched_s"`
	IOMBps   *float64       `json:"io_mbps"`
	BeffIO   *BeffIOSummary `json:"beffio"`

	Param      *string  `json:"param"`
	X          *int     `json:"x"`
	Epsilon    *float64 `json:"epsilon"`
	Reached    *bool    `json:"reached"`
	RelErr     *float64 `json:"rel_err"`
	Correction *float64 `json:"correction_us"`
	Stop       *string  `json:"stop"`
	MinReps    *int     `json:"min_reps"`
	MaxReps    *int     `json:"max_reps"`
	Tick       *float64 `json:"tick_us"`

	Guideline *string  `json:"guideline"`
	Kind      *string  `json:"kind"`
	Against   *string  `json:"against"`
	FromBytes *int     `json:"from_bytes"`
	Factor    *int     `json:"factor"`
	Test      *string  `json:"test"`
	Tolerance *float64 `json:"tolerance"`
	PValue    *float64 `json:"p_value"`
	Alpha     *float64 `json:"alpha"`

	Sync        *string  `json:"sync"`
	WindowS     *float64 `json:"window_s"`
	ClockErr    *float64 `json:"clock_error_s"`
	ValidReps   *int     `json:"valid_reps"`
	InvalidReps *int     `json:"invalid_reps"`
	StartLag    *float64 `json:"start_lag_s"`
}

// UnmarshalJSON reads a record of any version: the figures in the
// objects of version 3 or flat, as versions 1 and 2 wrote them. A flat
// key given (not null) sets its field after the objects are read.
func (r *Record) UnmarshalJSON(b []byte) error {
	type plain Record // plain has no methods: no recursion
	var v struct {
		*plain
		flatFigures
	}
	v.plain = (*plain)(r)
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	f := &v.flatFigures
	set(&r.TOvrl, f.TOvrl)
	set(&r.TPure, f.TPure)
	set(&r.TCPU, f.TCPU)
	set(&r.Overlap, f.Overlap)
	set(&r.CPUMflops, f.CPUMflops)
	set(&r.Rep, f.Rep)
	set(&r.BMBps, f.BMBps)
	set(&r.Seed, f.Seed)
	set(&r.Tries, f.Tries)
	setPtr(&r.Beff, f.Beff)
	set(&r.MemBytes, f.MemBytes)
	set(&r.Units, f.Units)
	set(&r.Pos, f.Pos)
	set(&r.IOBytes, f.IOBytes)
	set(&r.SchedSec, f.SchedSec)
	set(&r.IOMBps, f.IOMBps)
	setPtr(&r.BeffIO, f.BeffIO)
	set(&r.Param, f.Param)
	set(&r.X, f.X)
	set(&r.Epsilon, f.Epsilon)
	set(&r.Reached, f.Reached)
	setPtr(&r.RelErr, f.RelErr)
	set(&r.Correction, f.Correction)
	set(&r.Stop, f.Stop)
	set(&r.MinReps, f.MinReps)
	set(&r.MaxReps, f.MaxReps)
	set(&r.Tick, f.Tick)
	set(&r.Guideline, f.Guideline)
	set(&r.Kind, f.Kind)
	set(&r.Against, f.Against)
	set(&r.FromBytes, f.FromBytes)
	set(&r.Factor, f.Factor)
	set(&r.Test, f.Test)
	set(&r.Tolerance, f.Tolerance)
	set(&r.PValue, f.PValue)
	set(&r.Alpha, f.Alpha)
	set(&r.Sync, f.Sync)
	set(&r.WindowS, f.WindowS)
	set(&r.ClockErr, f.ClockErr)
	set(&r.ValidReps, f.ValidReps)
	setPtr(&r.InvalidReps, f.InvalidReps)
	set(&r.StartLag, f.StartLag)
	return nil
}

// set sets *dst to the flat key's value when the line had it.
func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// setPtr sets a pointer field to the flat key's value when the line had
// it (null leaves the field as it is, as it does a number).
func setPtr[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
	}
}

// Writer appends Records to a JSON Lines stream in records version 3, one
// line per Record, after the header of its run when the run has none yet
// in this stream. Each line is handed to the operating system before
// Write returns so that a crash of the process keeps every finished row.
// It does not fsync: a sync between two measurements disturbs the next
// one more than it protects.
type Writer struct {
	w    io.Writer
	base int              // the runs of this Writer are base+1, base+2, ...
	runs []*Context       // the contexts of the headers written; run base+i+1
	keys map[string][]int // contextKey -> runs with that key
	last int              // the run of the last record written
	// described is the last Groups slice found to be as described:
	// IMB's -multi 1 writes P/q records of one layout, the same slice,
	// and comparing each with its description again would cost O(P) a
	// record, O(P²/q) a length (docs/scale.md).
	described [][]int
	descKey   [4]int
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, keys: map[string][]int{}} }

// NewWriterAfter returns a Writer on w whose runs are numbered from
// run+1: its records can follow, in one stream, lines of runs up to run
// without any of them taking another's header.
func NewWriterAfter(w io.Writer, run int) *Writer {
	wr := NewWriter(w)
	wr.base = run
	return wr
}

// Write appends one Record, and before it its run's header when needed,
// in one write.
func (w *Writer) Write(r *Record) error {
	var b []byte
	run, isNew := w.run(&r.Context)
	run += w.base
	if isNew {
		h, err := json.Marshal(RunHeader{Schema: Schema, Run: run, Context: r.Context})
		if err != nil {
			return err
		}
		b = append(h, '\n')
	}
	var groups *[][]int
	switch {
	case w.groupsDescribed(r):
	case r.Groups == nil && describesGroups(r):
		groups = &[][]int{} // none, not "as described"
	case r.Groups != nil:
		groups = &r.Groups
	}
	line, err := marshalRecord(r, run, groups)
	if err != nil {
		return err
	}
	b = append(append(b, line...), '\n')
	_, err = w.w.Write(b)
	return err
}

// groupsDescribed is groupsDescribed(r), remembered for the last slice
// of groups that was (a record's Groups are not changed once written).
func (w *Writer) groupsDescribed(r *Record) bool {
	key := [4]int{r.Context.Procs, r.NProcs, min(r.Multi, 0), 0}
	if len(r.Map) == 2 {
		key[3] = r.Map[0]<<32 | r.Map[1]
	}
	if len(r.Groups) > 0 && len(r.Groups) == len(w.described) && &r.Groups[0] == &w.described[0] &&
		key == w.descKey && describesGroups(r) {
		return true
	}
	if !groupsDescribed(r) {
		return false
	}
	w.described, w.descKey = r.Groups, key
	return true
}

// run is the id of c's header less base, and whether it is new (to be
// written).
func (w *Writer) run(c *Context) (int, bool) {
	if w.last > 0 && sameContext(w.runs[w.last-1], c) {
		return w.last, false
	}
	key := contextKey(c)
	for _, id := range w.keys[key] {
		if sameContext(w.runs[id-1], c) {
			w.last = id
			return id, false
		}
	}
	cc := *c
	w.runs = append(w.runs, &cc)
	w.last = len(w.runs)
	w.keys[key] = append(w.keys[key], w.last)
	return w.last, true
}

// Warning is a line of a results file that could not be read.
type Warning struct {
	File string
	Line int
	Err  error
}

func (w Warning) String() string { return fmt.Sprintf("%s:%d: %v", w.File, w.Line, w.Err) }

// Read reads every Record of a JSON Lines stream. A line that does not
// parse is skipped and reported as a Warning (a killed run leaves half a
// line behind); only an I/O error stops the read. Scan reads without
// keeping the records.
func Read(r io.Reader, name string) ([]Record, []Warning, error) {
	var recs []Record
	warns, err := Scan(r, name, func(rec *Record) error {
		recs = append(recs, *rec)
		return nil
	})
	return recs, warns, err
}

// Header describes a run for the renderers that print one before the rows.
type Header struct {
	Context    Context
	Suite      string   // mpi1, ext, io
	Part       string   // e.g. "MPI-1"
	Benchmarks []string // in run order
	Multi      int      // -1 primary, 0 or 1
	MinLen     int
	MaxLen     int
	UserLens   bool // lengths came from -msglen
	Check      bool
	CPUMflops  float64 // IMB-IO with non-blocking benchmarks: CPU_Exploit's rate
	TimeLimit  float64 // IMB -time: seconds per sample, < 0 off; 0 unknown (not printed)
	IMB2021    bool    // IMB 2021.11's header lines: -imb 2021, and the suites IMB 3.0 lacks (nbc, rma, mpi4)
	// Invalid are the arguments IMB 2021 ignores, run under an Intel
	// program name: an "Invalid benchmark name" line each, after the list.
	Invalid []string
}

// Collector keeps every Record of a run and hands each to Sink as soon as
// it is made, so that a crash loses no finished one. The first failed write
// is kept in Err and the run goes on: the measurement is worth finishing
// and printing even when the results file cannot take it.
type Collector struct {
	Sink    func(*Record) error // nil: keep the records only
	Records []Record
	Err     error
}

// Add keeps r and writes it.
func (c *Collector) Add(r *Record) {
	c.Records = append(c.Records, *r)
	if c.Sink == nil {
		return
	}
	if err := c.Sink(r); err != nil && c.Err == nil {
		c.Err = fmt.Errorf("writing records: %w", err)
	}
}
