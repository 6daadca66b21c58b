package osu

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"mpibench/internal/cli"
	"mpibench/suites/osu/kernel"
)

// OSU 7.4's defaults (osu_util.h, osu_util.c: process_options).
const (
	LargeMessageSize = 8192      // LARGE_MESSAGE_SIZE: sizes above it take the large counts
	DefaultWindow    = 64        // WINDOW_SIZE_LARGE: -W
	DefaultMaxSize   = 1 << 22   // MAX_MESSAGE_SIZE: -m for the point-to-point tests
	DefaultMaxColl   = 1 << 20   // MAX_MSG_SIZE_COLL: -m for the collectives
	DefaultMemLimit  = 512 << 20 // MAX_MEM_LIMIT: -M
	MinMemLimit      = 1 << 20   // MAX_MEM_LOWER_LIMIT: a smaller -M is raised to it
	ValidationWarmup = 5         // VALIDATION_SKIP_DEFAULT: -u
	MaxValidationWU  = 10        // VALIDATION_SKIP_MAX
	MaxPercentiles   = 5         // OMB_STAT_MAX_NUM
	DDTStride        = 8         // OMB_DDT_STRIDE_DEFAULT
	DDTBlock         = 4         // OMB_DDT_BLOCK_LENGTH_DEFAULT
	MaxDatatypes     = 3         // OMB_NUM_DATATYPES
	DefaultThreads   = 2         // DEF_NUM_THREADS: osu_latency_mt's receiver threads
	MaxThreads       = 128       // MAX_NUM_THREADS (exclusive)
	DefaultProcs     = 2         // DEF_NUM_PROCESSES: osu_latency_mp's forks on each side
	MaxProcs         = 128       // MAX_NUM_PROCESSES (exclusive)
	Version          = "7.4"     // the OSU whose definitions run
	MaxBytes         = 1<<31 - 1 // the largest size a kernel takes now (MPI counts are C ints)
	byteLimitNote    = "2 GiB"   // MaxBytes+1 in words, for messages
	rootRotate       = -1        // OMB_ROOT_ROTATE_VAL: -k rotate
	maxIndexedBlocks = 100       // OMB_DDT_INDEXED_MAX_LENGTH
)

// Options is an mpibench osu run as every rank agreed on it: OSU 7.4's
// options (options_t in osu_util.h) for one benchmark.
type Options struct {
	Bench   string `json:"bench"`    // OSU's program name: osu_latency, ...
	MinSize int64  `json:"min_size"` // -m MIN:
	MaxSize int64  `json:"max_size"` // -m :MAX
	// Iterations and Skip are the timed and warm-up iterations for sizes up
	// to LargeMessageSize, the Large ones above; -i and -x set both.
	Iterations      int  `json:"iterations"`
	IterationsLarge int  `json:"iterations_large"`
	Skip            int  `json:"skip"`
	SkipLarge       int  `json:"skip_large"`
	Window          int  `json:"window"`      // -W
	VaryWindow      bool `json:"vary_window"` // -V (osu_mbw_mr)
	Full            bool `json:"full"`        // -f
	// Percentiles is -z (nil: no tail columns; -z alone: 50, 90, 99).
	Percentiles []int `json:"percentiles,omitempty"`
	Validate    bool  `json:"validate"` // -c
	// ValidationWarmup is -u: the untimed repetitions before each timed
	// one with -c (0 without -c, as OSU sets it).
	ValidationWarmup int       `json:"validation_warmup"`
	Types            []string  `json:"types"`              // -T, in order: MPI_CHAR, MPI_INT, MPI_FLOAT
	DDT              *DDT      `json:"ddt,omitempty"`      // -D
	InPlace          bool      `json:"in_place"`           // -l
	MultipleBuffers  bool      `json:"multiple"`           // -b multiple
	MemLimit         int64     `json:"mem_limit"`          // -M
	Probes           int       `json:"probes"`             // -t for the non-blocking collectives
	SenderThreads    int       `json:"sender_threads"`     // -t S:R for osu_latency_mt (-1: OSU's "one")
	ReceiverThreads  int       `json:"receiver_threads"`   // -t R
	Pairs            int       `json:"pairs"`              // -p (0: np/2)
	SenderProcs      int       `json:"sender_processes"`   // -t S:R for osu_latency_mp (-1: OSU's "none" after -t R)
	ReceiverProcs    int       `json:"receiver_processes"` // -t R
	PrintRate        bool      `json:"print_rate"`         // -R
	Root             int       `json:"root"`               // -k fixed:N, or rootRotate
	Topology         *Topology `json:"topology,omitempty"` // -N (neighbourhood tests; topology.go)
	Samples          bool      `json:"samples"`            // --samples: every iteration in the records
	Win              string    `json:"win,omitempty"`      // -w of the one-sided tests: create, allocate, dynamic
	Sync             string    `json:"sync,omitempty"`     // -s of the one-sided tests: lock, pscw, fence, flush, ...
	JSON             string    `json:"json,omitempty"`
}

// Senders are osu_latency_mt's sender threads: -t S:R's S, or 1
// (num_threads_sender) when -t gave none.
func (o *Options) Senders() int {
	if o.SenderThreads > 0 {
		return o.SenderThreads
	}
	return 1
}

// DDT is -D: OSU's derived datatypes (osu_util.c: omb_ddt_process_options,
// osu_util_mpi.c: omb_ddt_assign).
type DDT struct {
	Kind   string `json:"kind"` // cont, vect, indx
	Stride int    `json:"stride,omitempty"`
	Block  int    `json:"block,omitempty"`
	File   string `json:"file,omitempty"`
	Displs []int  `json:"displs,omitempty"` // indx: the file's displacements and block lengths
	Blocks []int  `json:"blocks,omitempty"`
}

// kernel is d for the kernels (nil for none).
func (d *DDT) kernel() *kernel.DDT {
	if d == nil {
		return nil
	}
	return &kernel.DDT{Kind: d.Kind, Stride: d.Stride, Block: d.Block, Displs: d.Displs, Blocks: d.Blocks}
}

// reach is the elements d's type spans from its start: an indexed type's
// last block may end beyond the message (the others stay within it).
func (d *DDT) reach() int64 {
	var e int64
	for i := range d.Blocks {
		e = max(e, int64(d.Displs[i]+d.Blocks[i]))
	}
	return e
}

// String is -D as OSU spells it.
func (d *DDT) String() string {
	switch d.Kind {
	case "vect":
		return fmt.Sprintf("vect:%d:%d", d.Stride, d.Block)
	case "indx":
		return "indx:" + d.File
	}
	return d.Kind
}

// Counts are the iterations and warm-ups at size bytes: OSU switches to the
// large counts for sizes above LARGE_MESSAGE_SIZE (osu_latency.c and the
// others: "if (size > LARGE_MESSAGE_SIZE)").
func (o *Options) Counts(size int64) (iters, skip int) {
	if size > LargeMessageSize {
		return o.IterationsLarge, o.SkipLarge
	}
	return o.Iterations, o.Skip
}

// Sizes are the message sizes of the run, as OSU's loops step them:
// from -m's minimum, doubled (0 goes to 1), up to the maximum.
func (o *Options) Sizes() []int64 {
	var out []int64
	for s := o.MinSize; s <= o.MaxSize; {
		out = append(out, s)
		if s == 0 {
			s = 1
		} else if s > math.MaxInt64/2 {
			break
		} else {
			s *= 2
		}
	}
	return out
}

// defaults are process_options's defaults for b.
func defaults(b *Benchmark) *Options {
	o := &Options{Bench: b.Name, MinSize: 1, MaxSize: DefaultMaxSize, Window: DefaultWindow,
		MemLimit: DefaultMemLimit, ValidationWarmup: ValidationWarmup, PrintRate: true,
		ReceiverThreads: DefaultThreads, SenderThreads: -1, SenderProcs: DefaultProcs, ReceiverProcs: DefaultProcs}
	if b.Kind.Collective() {
		o.MaxSize = DefaultMaxColl
	}
	c := b.Kind.counts()
	o.Iterations, o.Skip, o.IterationsLarge, o.SkipLarge = c[0], c[1], c[2], c[3]
	if b.Kind == Latency || b.Kind == MultiLatency || b.Kind == LatencyMT || b.Kind == LatencyMP {
		o.MinSize = 0 // "if (options.bench == PT2PT) options.min_message_size = 0"
	}
	if b.RMA != nil { // osu_put_latency.c and the others, MPI >= 3
		o.Win, o.Sync = winNames[kernel.WinAllocate], syncNames[b.RMA.sync]
		if b.RMA.create {
			o.Win = winNames[kernel.WinCreate]
		}
	}
	return o
}

// Parse reads `mpibench osu BENCH [flags]`: the benchmark and OSU 7.4's
// options for it (its getopt string, osu_util_options.h), checked as
// OSU's process_options checks them and where OSU takes any value
// silently (atoi), refused with the flag and the value named.
func Parse(args []string) (*Options, error) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return nil, cli.Usagef("name a benchmark first: mpibench osu BENCH [flags] (mpibench list shows them)")
	}
	b, ok := Lookup(args[0])
	if !ok {
		return nil, cli.Usagef("unknown benchmark %q (mpibench list shows them)", args[0])
	}
	o := defaults(b)
	opts, err := getopt(args[1:], b.Opts)
	if err != nil {
		return nil, err
	}
	for _, op := range opts {
		if err := o.set(b, op); err != nil {
			if cli.IsUsage(err) {
				return nil, err
			}
			return nil, cli.Usagef("%s %s: %v", op.spell, op.arg, err)
		}
	}
	return o, o.finish(b)
}

// finish applies what process_options does after the options.
func (o *Options) finish(b *Benchmark) error {
	if !o.Validate {
		o.ValidationWarmup = 0
	}
	if o.Topology == nil && collKind(b).Neighbourhood() {
		o.Topology = &Topology{Kind: "cart", Dim: defaultCartDim, Rad: defaultCartRad}
	}
	if len(o.Types) == 0 {
		o.Types = []string{"MPI_CHAR"}
	}
	if o.MaxSize < o.MinSize {
		return cli.Usagef("-m: the minimum %d is above the maximum %d", o.MinSize, o.MaxSize)
	}
	if err := checkAtomOptions(b, o); err != nil {
		return cli.Usagef("%v", err) // osu/atom.go
	}
	if err := checkBigSizes(b, o); err != nil {
		return err // big.go: 2 GiB and more
	}
	if o.VaryWindow && o.Window != DefaultWindow {
		return cli.Usagef("-V cannot be used with -W (OSU 7.4's help)")
	}
	if b.Kind == LatencyMT && o.Validate && o.ReceiverThreads != o.SenderThreads {
		// osu_latency_mt.c: "options.validate && options.num_threads != options.sender_thread".
		return cli.Usagef("-c: the number of sender and receiver threads must be the same with validation; " +
			"set both with -t S:R (OSU 7.4)")
	}
	return nil
}

// set applies one option (process_options's switch).
func (o *Options) set(b *Benchmark, op option) error {
	switch op.letter {
	case 'm':
		return o.setSizes(b, op.arg)
	case 'i':
		n, err := atLeast(op.arg, 1)
		o.Iterations, o.IterationsLarge = n, n
		return err
	case 'x':
		n, err := atLeast(op.arg, 0)
		o.Skip, o.SkipLarge = n, n
		return err
	case 'W':
		n, err := atLeast(op.arg, 1)
		o.Window = n
		return err
	case 'u':
		n, err := atLeast(op.arg, 0)
		if err == nil && n > MaxValidationWU {
			err = fmt.Errorf("validation warm-up iterations must be at most %d", MaxValidationWU)
		}
		o.ValidationWarmup = n
		return err
	case 'o':
		o.JSON = op.arg
		return nil
	}
	return o.setMore(b, op)
}

// setMore is set for the options without a count.
func (o *Options) setMore(b *Benchmark, op option) error {
	switch op.letter {
	case 'f':
		o.Full = true
	case 'V':
		o.VaryWindow = true
	case 'l':
		o.InPlace = true
	case 'S':
		o.Samples = true
	case 'c':
		return o.setValidate(op)
	case 'z':
		return o.setPercentiles(op)
	case 'T':
		return o.setType(op.arg)
	case 'D':
		return o.setDDT(op.arg)
	case 'b':
		return o.setBuffers(op.arg)
	default:
		return o.setRest(b, op)
	}
	return nil
}

// setRest is set for the remaining options.
func (o *Options) setRest(b *Benchmark, op option) error {
	var err error
	switch op.letter {
	case 'M':
		o.MemLimit, err = parseBytes(op.arg)
		o.MemLimit = max(o.MemLimit, MinMemLimit) // set_max_memlimit raises it, with a warning
	case 't':
		err = o.setT(b, op.arg)
	case 'p':
		o.Pairs, err = atLeast(op.arg, 1)
	case 'R':
		var n int
		n, err = strconv.Atoi(op.arg)
		if err != nil || (n != 0 && n != 1) {
			err = fmt.Errorf("want 0 or 1")
		}
		o.PrintRate = n == 1
	case 'k':
		err = o.setRoot(op.arg)
	case 'w':
		err = o.setWin(op.arg)
	case 's':
		err = o.setSync(b, op.arg)
	case 'N':
		err = o.setTopology(op.arg)
	case 'v':
		return cli.Usagef("-v: mpibench runs OSU %s's definitions; mpibench version prints its own version", Version)
	default:
		return cli.Usagef("option %s (OSU 7.4: %s) is not supported by mpibench", op.spell, unsupported[op.letter])
	}
	return err
}

// unsupported names OSU's options that mpibench does not have.
var unsupported = map[byte]string{'G': "graphs", 'P': "PAPI counters", 'I': "MPI sessions",
	'a': "device arrays", 'd': "accelerator buffers", 'r': "CUDA kernels"}

func (o *Options) setValidate(op option) error {
	if o.DDT != nil {
		return cli.Usagef("-c: derived data types do not support validation (OSU 7.4)")
	}
	switch {
	case op.hasArg && strings.HasPrefix(op.arg, "log"):
		return cli.Usagef("-c%s: validation logs (-clog) are not supported by mpibench; use -c", op.arg)
	case op.hasArg:
		// getopt gives -c's optional argument everything attached: OSU
		// reads -cz as -c with "z", which it passes over.
		return cli.Usagef("-c%s: -c takes no value here (OSU reads -c%s as -c alone); write -c -%s", op.arg,
			op.arg, op.arg)
	}
	o.Validate = true
	return nil
}

// setPercentiles is -z[P,P,...]: up to OMB_STAT_MAX_NUM percentiles
// between 0 and 100; -z alone is 50, 90, 99.
func (o *Options) setPercentiles(op option) error {
	if !op.hasArg {
		o.Percentiles = []int{50, 90, 99}
		return nil
	}
	o.Percentiles = nil
	for _, f := range strings.Split(op.arg, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || n > 100 {
			return fmt.Errorf("percentiles must be between 0 and 100")
		}
		o.Percentiles = append(o.Percentiles, n)
	}
	if len(o.Percentiles) > MaxPercentiles {
		return fmt.Errorf("at most %d percentiles", MaxPercentiles)
	}
	return nil
}

// typeNames are -T's values (process_options: a case-insensitive prefix
// match of MPI_CHAR, MPI_INT, MPI_FLOAT, or ALL for the three).
var typeNames = []string{"MPI_CHAR", "MPI_INT", "MPI_FLOAT"}

func (o *Options) setType(v string) error {
	u := strings.ToUpper(v)
	switch {
	case strings.HasPrefix(u, "ALL"):
		o.Types = append(o.Types, typeNames...)
	case strings.HasPrefix(u, "MPI_CHAR"):
		o.Types = append(o.Types, "MPI_CHAR")
	case strings.HasPrefix(u, "MPI_INT"):
		o.Types = append(o.Types, "MPI_INT")
	case strings.HasPrefix(u, "MPI_FLOAT"):
		o.Types = append(o.Types, "MPI_FLOAT")
	default:
		return fmt.Errorf("want mpi_char, mpi_int, mpi_float or all")
	}
	if len(o.Types) > MaxDatatypes {
		return fmt.Errorf("at most %d datatypes in all (OSU 7.4)", MaxDatatypes)
	}
	return nil
}

// setDDT is -D cont | vect:STRIDE:BLOCK | indx:FILE.
func (o *Options) setDDT(v string) error {
	if o.Validate {
		return cli.Usagef("-D: derived data types do not support validation (-c) (OSU 7.4)")
	}
	parts := strings.Split(v, ":")
	d := &DDT{Kind: strings.ToLower(parts[0])}
	switch {
	case strings.HasPrefix(d.Kind, "cont") && len(parts) == 1:
		d.Kind = "cont"
	case strings.HasPrefix(d.Kind, "vect") && len(parts) == 3:
		d.Kind = "vect"
		s, err1 := strconv.Atoi(parts[1])
		b, err2 := strconv.Atoi(parts[2])
		if err1 != nil || err2 != nil || s < 1 || b < 1 || b > s {
			return fmt.Errorf("want vect:STRIDE:BLOCK with 1 <= BLOCK <= STRIDE")
		}
		d.Stride, d.Block = s, b
	case strings.HasPrefix(d.Kind, "indx") && len(parts) == 2:
		d.Kind, d.File = "indx", parts[1]
		if err := d.readIndexed(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("want cont, vect:STRIDE:BLOCK or indx:FILE")
	}
	o.DDT = d
	return nil
}

// readIndexed reads an indx file as omb_ddt_assign does: lines
// "DISPLACEMENT, BLOCK LENGTH" in elements, lines starting with # are
// comments. OSU 7.4 then builds MPI_Type_indexed of i-1 blocks, one
// fewer than the file has, while its "Transmit Size" counts them all (its
// own sample file of one line makes an empty type): mpibench takes every
// block of the file, and both figures agree.
func (d *DDT) readIndexed() error {
	f, err := os.Open(d.File)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // only read
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		a, b, ok := strings.Cut(t, ",")
		disp, err1 := strconv.Atoi(strings.TrimSpace(a))
		bl, err2 := strconv.Atoi(strings.TrimSpace(b))
		if !ok || err1 != nil || err2 != nil || disp < 0 || bl < 0 {
			return fmt.Errorf("%s:%d: want DISPLACEMENT, BLOCK LENGTH (non-negative integers)", d.File, line)
		}
		d.Displs, d.Blocks = append(d.Displs, disp), append(d.Blocks, bl)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(d.Blocks) == 0 || len(d.Blocks) > maxIndexedBlocks {
		return fmt.Errorf("%s: want 1 to %d blocks, have %d", d.File, maxIndexedBlocks, len(d.Blocks))
	}
	return nil
}

func (o *Options) setBuffers(v string) error {
	switch strings.ToLower(v) {
	case "single":
		o.MultipleBuffers = false
	case "multiple":
		o.MultipleBuffers = true
	default:
		return fmt.Errorf("want single or multiple")
	}
	return nil
}

// setT is -t: MPI_Test calls for the non-blocking collectives,
// [SEND:]RECV threads for osu_latency_mt.
func (o *Options) setT(b *Benchmark, v string) error {
	if b.Kind == LatencyMP {
		return o.setProcs(v) // pt2pt_mp.go
	}
	if b.Kind != LatencyMT {
		n, err := atLeast(v, 0)
		o.Probes = n
		return err
	}
	s, r, two := strings.Cut(v, ":")
	if !two {
		n, err := threads(s)
		o.ReceiverThreads, o.SenderThreads = n, -1
		return err
	}
	ns, err := threads(s)
	if err != nil {
		return err
	}
	o.SenderThreads = ns
	o.ReceiverThreads, err = threads(r)
	return err
}

func threads(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n >= MaxThreads {
		return 0, fmt.Errorf("want threads from 1 to %d", MaxThreads-1)
	}
	return n, nil
}

// setRoot is -k fixed:RANK | rotate.
func (o *Options) setRoot(v string) error {
	kind, rank, _ := strings.Cut(v, ":")
	switch strings.ToLower(kind) {
	case "rotate":
		o.Root = rootRotate
		return nil
	case "fixed":
		n, err := strconv.Atoi(rank)
		if err != nil || n < 0 {
			return fmt.Errorf("want fixed:RANK or rotate")
		}
		o.Root = n
		return nil
	}
	return fmt.Errorf("want fixed:RANK or rotate")
}

// setSizes is -m [MIN:]MAX, MIN:, :MAX (set_message_size), sizes in
// bytes with an optional K, M or G suffix (powers of 1024; an mpibench
// addition: OSU reads the digits with atoll). A minimum of 0 keeps the
// benchmark's default minimum, as OSU's set_min_message_size refuses 0.
func (o *Options) setSizes(b *Benchmark, v string) error {
	lo, hi, two := strings.Cut(v, ":")
	if !two {
		n, err := parseBytes(v)
		o.MaxSize = n
		return err
	}
	if lo == "" && hi == "" {
		return fmt.Errorf("want [MIN:]MAX")
	}
	if lo != "" {
		n, err := parseBytes(lo)
		if err != nil {
			return err
		}
		if n > 0 {
			o.MinSize = n
		} else {
			o.MinSize = defaults(b).MinSize
		}
	}
	if hi != "" {
		n, err := parseBytes(hi)
		o.MaxSize = n
		return err
	}
	return nil
}

// parseBytes reads a size: digits with an optional K, M or G suffix.
func parseBytes(v string) (int64, error) { return cli.Bytes(v, math.MaxInt64) }

// atLeast reads an integer not below lo.
func atLeast(v string, lo int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > math.MaxInt32 {
		return 0, fmt.Errorf("want an integer from %d to %d", lo, math.MaxInt32)
	}
	return n, nil
}
