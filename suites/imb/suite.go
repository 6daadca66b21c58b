package imb

import (
	"sort"
	"strings"

	"mpibench/analysis/result"
)

// Mode is a benchmark mode of IMB-EXT and IMB-IO (section 4.2.2).
type Mode int

// The modes. MPI-1 benchmarks have none.
const (
	NoMode       Mode = iota
	Aggregate         // M = n_sample transfers, then one completion
	NonAggregate      // every transfer completed before the next (M = 1)
	NonBlocking       // IMB-IO i-calls overlapped with CPU_Exploit
)

func (m Mode) String() string {
	return [...]string{"", "aggregate", "non-aggregate", "non-blocking"}[m]
}

// Settings are the hard-coded parameters of settings.h / settings_io.h
// (section 5.2.1) in IMB's standard mode.
type Settings struct {
	MinMsgLog     int
	MaxMsgLog     int
	MsgsPerSample int     // repetitions of MPI-1 and aggregate benchmarks
	MsgsNonAggr   int     // repetitions of non-aggregate benchmarks
	OverallVol    int     // bytes one sample may move at most
	NWarmup       int     // warm-up sweeps at the maximum length (MPI-1, EXT)
	NBarr         int     // barriers before the timer starts
	TargetCPUSecs float64 // CPU_Exploit time of non-blocking benchmarks
	NoZero        bool    // -zero_size off: the default lengths start at 2^MinMsgLog
}

// MaxMsg is the largest default length, 2^MAXMSGLOG.
func (s *Settings) MaxMsg() int { return 1 << s.MaxMsgLog }

// Repetitions is n_sample for x bytes in mode m (section 5.2.8):
// MSGSPERSAMPLE (MSGS_NONAGGR for non-aggregate mode) for x = 0, else
// max(1, min(that, OVERALL_VOL/x)).
func (s *Settings) Repetitions(x int, m Mode) int {
	n := s.MsgsPerSample
	if m == NonAggregate {
		n = s.MsgsNonAggr
	}
	if x == 0 {
		return n
	}
	return max(1, min(n, s.OverallVol/x))
}

// DefaultLengths are the standard lengths for a length unit: 0, then
// max(unit, 2^MINMSGLOG) doubling up to 2^MAXMSGLOG.
func (s *Settings) DefaultLengths(unit int) []int {
	lens := []int{0}
	if s.NoZero {
		lens = nil
	}
	for x := roundUp(1<<s.MinMsgLog, unit); x <= s.MaxMsg(); x *= 2 {
		lens = append(lens, x)
	}
	return lens
}

// AdjustLengths applies IMB's rules to user lengths (-msglen): a length
// above 2^MAXMSGLOG is truncated to it, and every length is rounded up to
// the unit (4 bytes for reductions), as IMB 2021.11 does
// (helper_IMB_functions.h, helper_init_scope: len = (len + unit_size -
// 1)/unit_size*unit_size). A length that comes out equal to one before it
// is dropped: IMB measures and prints it again, a second row with the same
// #bytes (-msglen 1, 2, 3 give three Allreduce rows of 4 bytes), which
// reads as three measurements of different lengths; mpibench measures each
// length once, at its first place in the file, so -msglen 4, 5, 6, 7 give
// the reduction rows 4 and 8. It returns the truncated lengths so the
// caller can report them as IMB does.
func (s *Settings) AdjustLengths(user []int, unit int) (lens []int, truncated []int) {
	maxMsg := s.MaxMsg() / unit * unit
	seen := map[int]bool{}
	for _, x := range user {
		if x > maxMsg {
			truncated = append(truncated, x)
			x = maxMsg
		}
		if x = roundUp(x, unit); !seen[x] {
			seen[x] = true
			lens = append(lens, x)
		}
	}
	return lens, truncated
}

func roundUp(x, unit int) int { return (x + unit - 1) / unit * unit }

// Suite is one IMB program and its command: IMB-MPI1, IMB-EXT or IMB-IO
// (IMB 3.0's settings), IMB-NBC, IMB-MPI4 or IMB-RMA (IMB 2021.11's).
type Suite struct {
	Name     string // the mpibench command: mpi1, ext, io, nbc, mpi4, rma
	Part     string // as the output header names it
	Settings Settings
	NPMin    int // default -npmin
	SingleQ  int // the one process count single transfers run on
	Table    []Benchmark
}

// The IMB 3.0 suites (NBCSuite, MPI4Suite and RMASuite are IMB 2021.11's,
// beside their tables). The MPI-1 and EXT settings come from settings.h,
// the IO settings from settings_io.h. The issue fixes OVERALL_VOL of MPI-1 and
// EXT at 40 MiB, which gives the sample tables' counts (65536 B → 640
// repetitions, 4 MiB → 10).
var (
	MPI1Suite = &Suite{Name: result.SuiteMPI1, Part: "MPI-1", NPMin: 2, SingleQ: 2, Table: MPI1,
		Settings: Settings{MaxMsgLog: 22, MsgsPerSample: 1000, MsgsNonAggr: 100, OverallVol: 40 << 20,
			NWarmup: 2, NBarr: 2, TargetCPUSecs: 0.01}}
	EXTSuite = &Suite{Name: result.SuiteEXT, Part: "MPI-2", NPMin: 2, SingleQ: 2, Table: EXT,
		Settings: MPI1Suite.Settings}
	IOSuite = &Suite{Name: result.SuiteIO, Part: "MPI-IO", NPMin: 1, SingleQ: 1, Table: IO,
		Settings: Settings{MaxMsgLog: 24, MsgsPerSample: 50, MsgsNonAggr: 10, OverallVol: 16 << 20,
			NBarr: 2, TargetCPUSecs: 0.1}}
)

// Suites lists the IMB suites in command order.
var Suites = []*Suite{MPI1Suite, EXTSuite, IOSuite, NBCSuite, MPI4Suite, RMASuite}

// SuiteByName finds a suite by its command name.
func SuiteByName(name string) *Suite {
	for _, s := range Suites {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Lookup finds a benchmark by name, case-insensitively.
func (s *Suite) Lookup(name string) (*Benchmark, bool) {
	for i := range s.Table {
		if strings.EqualFold(s.Table[i].Name, name) {
			return &s.Table[i], true
		}
	}
	return nil, false
}

// Names lists the benchmark names in table order.
func (s *Suite) Names() []string {
	names := make([]string, len(s.Table))
	for i, b := range s.Table {
		names[i] = b.Name
	}
	return names
}

// SortedNames lists the benchmark names alphabetically.
func (s *Suite) SortedNames() []string {
	n := s.Names()
	sort.Strings(n)
	return n
}

// ProcessCounts lists the active process counts Q for P processes and
// -npmin pmin (sections 5.1.1, 5.1.2.2): Pmin, 2Pmin, 4Pmin, ..., the
// largest 2^x·Pmin below P, then P. Pmin > P counts as P. Single transfers
// run on one count only: 2 (MPI-1, EXT) or 1 (IO); min(that, P), which the
// driver reports as invalid when it is too small.
func (s *Suite) ProcessCounts(p, pmin int, class Class) []int {
	if class == SingleTransfer {
		return []int{min(s.SingleQ, p)}
	}
	if class == ParallelTransferMsgRate {
		return pairCounts(p, pmin)
	}
	var qs []int
	for q := max(1, min(p, pmin)); ; q = min(2*q, p) {
		qs = append(qs, q)
		if q >= p {
			return qs
		}
	}
}
