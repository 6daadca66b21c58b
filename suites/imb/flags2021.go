package imb

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mpibench/suites/imb/kernel"
)

// Flags2021 are the flags of IMB-MPI1 2021.11 that IMB 3.0 does not have,
// with their names and meanings (src_cpp/MPI1/MPI1_suite.cpp, declare_args
// and prepare; src_cpp/imb.cpp for -include and -exclude). They are part of
// the Config, so every rank runs the values rank 0 parsed, and every
// record carries the ones given in its context's options map (Options).
// An empty field is IMB 2021.11's default, which leaves IMB 3.0's plan as
// it is.
type Flags2021 struct {
	// MsgLog is -msglog [min:]max: the default lengths are 0, then
	// 2^min, 2^(min+1), ..., 2^max (IMB's min_msg_log and max_msg_log; a
	// lone max means 0:max). max also bounds -msglen lengths, as
	// 2^MAXMSGLOG does. IMB 2021.11 allows 0 <= min <= max < 31; mpi1 takes
	// up to 32 for its large-count benchmarks (bigcase.go).
	MsgLog []int `json:"msglog,omitempty"`
	// Iter is -iter msgs[,vol[,nonaggr]]: MSGSPERSAMPLE, OVERALL_VOL in
	// MiB and MSGS_NONAGGR (IMB's defaults 1000,40,100).
	Iter []int `json:"iter,omitempty"`
	// IterPolicy is -iter_policy (see reps2021).
	IterPolicy string `json:"iter_policy,omitempty"`
	// ZeroSize is -zero_size: "off" drops the length 0 from the default
	// lengths (not from a -msglen file, as in IMB).
	ZeroSize string `json:"zero_size,omitempty"`
	// WarmUp is -warm_up: "off" leaves out the warm-up before a
	// benchmark's first sample (IMB 3.0's N_WARMUP sweeps at the largest
	// length, which mpibench keeps for "on"; IMB 2021.11 warms up before
	// every length instead, IMB_warm_up.c).
	WarmUp string `json:"warm_up,omitempty"`
	// Include and Exclude are -include and -exclude, comma-separated
	// benchmark names (see selectNames).
	Include []string `json:"include,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
	// IMB is -imb: "2021" runs IMB 2021.11's defaults and definitions
	// (imb2021.go); "" is IMB 3.0.
	IMB string `json:"imb,omitempty"`
	// Sync is -sync: IMB 2021's on or off in nbc and under -imb 2021 (a
	// barrier after every collective call or none; "" for its default,
	// on), barrier or none in mpi1 with IMB 3.0's loops (N_BARR barriers
	// before the timed loop, its default, or none: syncFor), window in
	// both. SyncArg is the value as typed, for messages. RootShift is
	// -root_shift (on|off; "" for IMB 2021's default, off), which needs
	// -imb 2021.
	Sync      string `json:"sync,omitempty"`
	SyncArg   string `json:"-"`
	RootShift string `json:"root_shift,omitempty"`
	// AggrMode is ext's -aggregate_mode: "aggregate" or "non_aggregate"
	// runs that mode only, "multi" (IMB's default) both
	// (helper_IMB_functions.h, AM_TURN_ON/AM_TURN_OFF).
	AggrMode string `json:"aggregate_mode,omitempty"`
	// Types are -off_cache, -data_type and -red_data_type (types2021.go).
	Types Types2021 `json:"types,omitempty"`
	// IMBBarrier is -imb_barrier on|off ("" for IMB's default, off);
	// Mem is -mem GB ("" for IMB's default, 1). See imbflags.go.
	IMBBarrier string `json:"imb_barrier,omitempty"`
	Mem        string `json:"mem,omitempty"`
	// WindowTime is -window_time, seconds between two repetitions' starts
	// under -sync window (window.go); 0 chooses it from a measured bound.
	WindowTime float64 `json:"window_time,omitempty"`
}

// flagNames2021 are the flags of Flags2021, in help order.
var flagNames2021 = []string{"msglog", "iter", "iter_policy", "zero_size", "warm_up", "include", "exclude", "imb", "sync", "root_shift", "aggregate_mode",
	"off_cache", "data_type", "red_data_type", "imb_barrier", "mem", "window_time"}

// The -iter_policy values of IMB 2021.11 (IMB_mem_manager.c,
// IMB_init_buffers_iter).
const (
	policyDynamic    = "dynamic"     // the -time rule (timelimit.go); IMB's default and mpibench's
	policyOff        = "off"         // MSGSPERSAMPLE repetitions at every length, no -time bound
	policyMultipleNP = "multiple_np" // a count that is a multiple of the process count, no -time bound
	policyAuto       = "auto"        // multiple_np for the rooted benchmarks, dynamic for the others
)

// set2021 reads the value of one of flagNames2021.
func (f *Flags2021) set2021(name, val string) error {
	switch name {
	case "msglog":
		return f.setMsgLog(val)
	case "iter":
		return f.setIter(val)
	case "iter_policy":
		if !slices.Contains([]string{policyDynamic, policyOff, policyMultipleNP, policyAuto}, val) {
			return usagef("-iter_policy %q: want dynamic, multiple_np, auto or off", val)
		}
		f.IterPolicy = val
	case "sync", "window_time":
		return f.setWindow(name, val)
	case "zero_size", "warm_up", "root_shift":
		if val != "on" && val != "off" {
			return usagef("-%s %q: want on or off", name, val)
		}
		*map[string]*string{"zero_size": &f.ZeroSize, "warm_up": &f.WarmUp,
			"root_shift": &f.RootShift}[name] = val
	case "imb":
		return f.setIMB(val)
	case "off_cache", "data_type", "red_data_type":
		return f.Types.set(name, val)
	case "imb_barrier", "mem":
		return f.setIMBFlag(name, val)
	case "aggregate_mode":
		if !slices.Contains([]string{"aggregate", "non_aggregate", "multi"}, val) {
			return usagef("-aggregate_mode %q: want aggregate, non_aggregate or multi", val)
		}
		f.AggrMode = val
	case "include", "exclude":
		names, err := nameList(name, val)
		if err != nil {
			return err
		}
		if name == "include" {
			f.Include = append(f.Include, names...)
		} else {
			f.Exclude = append(f.Exclude, names...)
		}
	}
	return nil
}

// maxMsgLog is IMB 2021.11's bound: min and max below MAX_INT_LOG = 31.
const maxMsgLog = 30

func (f *Flags2021) setMsgLog(val string) error {
	parts := strings.Split(val, ":")
	var v []int
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > maxBigMsgLog { // bigcase.go checks the suite and benchmarks
			v = nil
			break
		}
		v = append(v, n)
	}
	if len(v) == 1 {
		v = []int{0, v[0]}
	}
	if len(v) != 2 || v[0] > v[1] {
		return usagef("-msglog %q: want [min:]max with 0 <= min <= max <= %d, e.g. -msglog 3:10", val, maxBigMsgLog)
	}
	f.MsgLog = v
	return nil
}

func (f *Flags2021) setIter(val string) error {
	parts := strings.Split(val, ",")
	v := []int{1000, 40, 100} // IMB 2021.11's defaults for the values not given
	ok := len(parts) <= 3
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if !ok || err != nil || n < 1 {
			ok = false
			break
		}
		v[i] = n
	}
	if !ok {
		return usagef("-iter %q: want msgs[,vol[,nonaggr]], positive integers (repetitions, MiB per sample, "+
			"non-aggregate repetitions), e.g. -iter 1000,40,100", val)
	}
	f.Iter = v
	return nil
}

// nameList splits a comma-separated -include or -exclude value.
func nameList(flag, val string) ([]string, error) {
	var names []string
	for _, n := range strings.Split(val, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, usagef("-%s %q: want benchmark names separated by commas", flag, val)
	}
	return names, nil
}

// settings are s's settings with the flags applied.
func (f *Flags2021) settings(s *Settings) *Settings {
	set := *s
	if f.MsgLog != nil {
		set.MinMsgLog, set.MaxMsgLog = f.MsgLog[0], f.MsgLog[1]
	}
	if f.Iter != nil {
		set.MsgsPerSample, set.OverallVol, set.MsgsNonAggr = f.Iter[0], f.Iter[1]<<20, f.Iter[2]
	}
	set.NoZero = f.ZeroSize == "off"
	if f.WarmUp == "off" {
		set.NWarmup = 0
	}
	return &set
}

// check refuses the flags a suite does not have (checkSuite) and the
// combinations of flags that do not work together.
func (f *Flags2021) check(s *Suite) error {
	if err := f.check2021(s); err != nil {
		return err
	}
	if err := f.Types.check(s, f.IMB); err != nil {
		return err
	}
	if err := f.Types.checkWindow(f.Sync); err != nil {
		return err
	}
	return f.checkIMBFlags(s)
}

// suiteFlags are the IMB 2021 flags some suites have and others do not,
// in help order, with the suites that take them: those whose Intel
// program has the flag (src_cpp/MPI1/MPI1_suite.cpp,
// src_cpp/NBC/NBC_suite.cpp, src_cpp/MPI4/MPI4_suite.cpp,
// src_cpp/RMA/RMA_suite.cpp: declare_args; -include, -exclude and -list
// are src_cpp/imb.cpp's, every program's). IMB-RMA has no -zero_size;
// -sync and -root_shift are IMB-MPI1's, -NBC's, -MPI4's and -RMA's;
// -aggregate_mode is IMB-EXT's and IMB-RMA's. ext keeps every flag it took
// before -sync and -root_shift (its -zero_size is mpibench's: IMB-EXT has
// none), and io takes none of them.
var suiteFlags = []struct {
	name   string
	suites []*Suite
}{
	{"msglog", imb2021Suites}, {"iter", imb2021Suites}, {"iter_policy", imb2021Suites},
	{"zero_size", []*Suite{MPI1Suite, EXTSuite, NBCSuite, MPI4Suite}}, {"warm_up", imb2021Suites},
	{"include", imb2021Suites}, {"exclude", imb2021Suites},
	{"sync", []*Suite{MPI1Suite, NBCSuite, MPI4Suite, RMASuite}},
	{"root_shift", []*Suite{MPI1Suite, NBCSuite, MPI4Suite, RMASuite}},
	{"aggregate_mode", []*Suite{EXTSuite, RMASuite}}, {"list", imb2021Suites},
}

// imb2021Suites are the suites that take the IMB 2021 flags every one of
// Intel's 2021 programs has.
var imb2021Suites = []*Suite{MPI1Suite, EXTSuite, NBCSuite, MPI4Suite, RMASuite}

// checkSuite refuses the first of suiteFlags given (list: -list) that s
// does not take, naming the suites that do.
func (f *Flags2021) checkSuite(s *Suite, list bool) error {
	given := map[string]bool{"msglog": f.MsgLog != nil, "iter": f.Iter != nil, "iter_policy": f.IterPolicy != "",
		"zero_size": f.ZeroSize != "", "warm_up": f.WarmUp != "", "include": f.Include != nil,
		"exclude": f.Exclude != nil, "sync": f.Sync != "", "root_shift": f.RootShift != "",
		"aggregate_mode": f.AggrMode != "", "list": list}
	for _, fl := range suiteFlags {
		if !given[fl.name] || slices.Contains(fl.suites, s) {
			continue
		}
		var names []string
		for _, t := range fl.suites {
			names = append(names, t.Name)
		}
		why := ""
		if s == NBCSuite || s == MPI4Suite || s == RMASuite {
			why = fmt.Sprintf(" (%s 2021.11 has none)", s.program())
		}
		return usagef("-%s is a flag of mpibench %s, not of %s%s", fl.name, andList(names), s.Name, why)
	}
	return nil
}

// andList joins names as "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// program is the name of s's Intel program: IMB-MPI1, IMB-NBC, ...
func (s *Suite) program() string { return "IMB-" + strings.ToUpper(s.Name) }

// selectNames is the benchmark list of IMB 2021.11 (src_cpp/imb.cpp,
// main): the -include names first, then the named benchmarks, or the
// default list when none is named, without the -exclude names. IMB drops
// a name it does not know with a warning; mpibench refuses it, as it does
// an unknown benchmark name.
func (f *Flags2021) selectNames(s *Suite, named []string) ([]string, error) {
	incl, err := known(s, f.Include, "-include")
	if err != nil {
		return nil, err
	}
	excl, err := known(s, f.Exclude, "-exclude")
	if err != nil {
		return nil, err
	}
	rest, err := canonical(s, named, "command line")
	if err != nil {
		return nil, err
	}
	if len(named) == 0 && f.IMB == imb2021 && s == MPI1Suite {
		// IMB-EXT 2021.11's default list is IMB 3.0's (IMB_bnames_ext.h).
		rest = defaultNames2021
	}
	var out []string
	for _, n := range append(incl, rest...) {
		if !slices.Contains(out, n) && !slices.Contains(excl, n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, usagef("-exclude %s leaves no benchmark to run", strings.Join(f.Exclude, ","))
	}
	return out, nil
}

// known maps names to table spelling; none gives none.
func known(s *Suite, names []string, where string) ([]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	return canonical(s, names, where)
}

// options is the context's options map of a record: every flag of
// Flags2021 that was given, in IMB's spelling.
func (f *Flags2021) options() map[string]string {
	m := map[string]string{}
	join := func(v []int, sep string) string {
		s := make([]string, len(v))
		for i, n := range v {
			s[i] = strconv.Itoa(n)
		}
		return strings.Join(s, sep)
	}
	if f.MsgLog != nil {
		m["msglog"] = join(f.MsgLog, ":")
	}
	if f.Iter != nil {
		m["iter"] = join(f.Iter, ",")
	}
	for k, v := range map[string]string{"iter_policy": f.IterPolicy, "zero_size": f.ZeroSize,
		"warm_up": f.WarmUp, "imb": f.IMB, "sync": f.Sync, "root_shift": f.RootShift, "aggregate_mode": f.AggrMode, "imb_barrier": f.IMBBarrier, "mem": f.Mem, "include": strings.Join(f.Include, ","), "exclude": strings.Join(f.Exclude, ",")} {
		if v != "" {
			m[k] = v
		}
	}
	f.Types.options(m)
	if f.WindowTime > 0 {
		m["window_time"] = strconv.FormatFloat(f.WindowTime, 'g', -1, 64)
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// runModes are the modes b runs in, as -aggregate_mode leaves them.
func (f *Flags2021) runModes(b *Benchmark) []Mode {
	drop := map[string]Mode{"aggregate": NonAggregate, "non_aggregate": Aggregate}[f.AggrMode]
	var ms []Mode
	for _, m := range modes(b) {
		if f.AggrMode == "" || f.AggrMode == "multi" || m != drop {
			ms = append(ms, m)
		}
	}
	return ms
}

// timed tells whether b's counts follow the -time rule: under the
// dynamic policy, and under auto for the benchmarks without a root.
func (f *Flags2021) timed(b *Benchmark) bool {
	switch f.IterPolicy {
	case policyOff, policyMultipleNP:
		return false
	case policyAuto:
		return !rooted(b)
	}
	return true
}

// rooted are the benchmarks IMB 2021.11 counts as root-based for
// -iter_policy auto: those its descriptors flag HAS_ROOT
// (src_cpp/helpers/helper_IMB_functions.h, IMB_init_buffers_iter:
// root_based = flags.count(HAS_ROOT)). In IMB-MPI1 Gather(v), Scatter(v),
// Bcast and Reduce (MPI1_benchmark.cpp); in IMB-NBC and IMB-MPI4 their
// non-blocking and persistent versions, and those versions' _pure
// variants but Ireduce_pure and Reduce_persist_pure (NBC_benchmark.cpp,
// MPI4_benchmark.cpp); none in IMB-RMA.
func rooted(b *Benchmark) bool {
	if b.NBC != nil {
		k := b.NBC.Kind
		return slices.Contains([]kernel.NBCKind{kernel.Igather, kernel.Igatherv, kernel.Iscatter, kernel.Iscatterv, kernel.Ibcast}, k) ||
			k == kernel.Ireduce && !b.NBC.Pure
	}
	return b.RMA3 == nil && slices.Contains([]string{"Gather", "Gatherv", "Scatter", "Scatterv", "Bcast", "Reduce"}, b.Name)
}

// reps2021 is n_sample of b at x bytes in mode m on q processes under
// -iter_policy, before the -time rule (IMB_mem_manager.c,
// IMB_init_buffers_iter): off gives MSGSPERSAMPLE at every length and mode;
// multiple_np (and auto for the rooted benchmarks) gives
// n = round(MSGSPERSAMPLE·2^max / (q·x' + 2^max)), lowered to a multiple of
// q and at least q, in every mode, with x' = max(x, 4) (IMB's init_size =
// max(size, sizeof(assign_type)): 0 to 3 bytes count as 4); dynamic (and
// auto for the others) keeps IMB's n_sample, set.Repetitions. A
// benchmark without lengths (Barrier, Ibarrier: IMB's Sync type) counts
// as one of 2^max bytes, the length IMB's driver gives it
// (helper_IMB_functions.h, helper_init_scope: len = glob.MAXMSG).
func (f *Flags2021) reps2021(set *Settings, b *Benchmark, x int, m Mode, q int) int {
	switch {
	case f.IterPolicy == policyOff:
		return set.MsgsPerSample
	case f.IterPolicy == policyMultipleNP || f.IterPolicy == policyAuto && rooted(b):
		if b.NoBytes {
			x = set.MaxMsg()
		}
		maxMsg := float64(set.MaxMsg())
		n := int(float64(set.MsgsPerSample)*maxMsg/(float64(q)*float64(max(x, 4))+maxMsg) + 0.5)
		return max(n-n%q, q)
	}
	return set.Repetitions(x, f.windowMode(b, m))
}

// flags2021Usage is the help of the flags in s (mpi1, ext, nbc, mpi4,
// rma): the lines of the flags s takes (suiteFlags), with the large
// lengths of mpi1 and the rooted benchmarks of -iter_policy auto in s.
func flags2021Usage(s *Suite) string {
	var b strings.Builder
	b.WriteString(`  IMB 2021's flags (same names and meanings as ` + s.program() + ` 2021.11; the
  records' context.options lists the ones given):
  -msglog [MIN:]MAX  default lengths 0, 2^MIN, ..., 2^MAX (default 0:22);
                MAX also bounds -msglen lengths`)
	if s == MPI1Suite {
		b.WriteString(`; MAX 31 and 32 (2 and 4 GiB)
                for PingPong, PingPing, Sendrecv, Exchange, Bcast, Reduce,
                Allreduce of mpi1 (large-count calls, see docs/large-messages.md)`)
	} else {
		b.WriteString(` (MAX <= 30)`)
	}
	b.WriteString(`
  -iter MSGS[,VOL[,NONAGGR]]  repetitions per sample, MiB a sample may move
                at most, non-aggregate repetitions (default 1000,40,100)
  -iter_policy dynamic|multiple_np|auto|off  dynamic: the -time rule
                (default); off: MSGS repetitions at every length, unbounded;
                multiple_np: MSGS*2^MAX/(np*bytes+2^MAX) rounded down to a
                multiple of np, unbounded; auto: multiple_np for ` + autoRooted[s] + `
`)
	if s != RMASuite {
		b.WriteString("  -zero_size on|off  off: no 0-byte row (default lengths only)\n")
	}
	warm := "before a benchmark's first sample"
	if s == NBCSuite || s == MPI4Suite || s == RMASuite {
		warm = "before every sample (a tenth of its\n                repetitions, as IMB's)"
	}
	b.WriteString(`  -warm_up on|off  off: no warm-up run ` + warm + `
  -include B1[,B2...]  run these too, first
  -exclude B1[,B2...]  do not run these
  -list         print the benchmarks as IMB's -list does ("(non-default)":
                not in the list a run without names runs) and stop
`)
	b.WriteString(syncUsage[s])
	return b.String()
}

// autoRooted is what -iter_policy auto does in each suite (rooted).
var autoRooted = map[*Suite]string{
	MPI1Suite: "Bcast,\n                Reduce, Gather(v), Scatter(v), dynamic for the others",
	EXTSuite:  "none,\n                dynamic for every benchmark",
	NBCSuite:  "Ibcast,\n                Igather(v), Iscatter(v) and their _pure, Ireduce (not\n                Ireduce_pure, as IMB), dynamic for the others",
	MPI4Suite: "Bcast_,\n                Gather(v)_, Scatter(v)_persist and their _pure,\n                Reduce_persist (not its _pure, as IMB), dynamic for the others",
	RMASuite:  "none,\n                dynamic for every benchmark (IMB-RMA has no root)",
}

// syncUsage is the help of -sync and -root_shift in the IMB 2021 suites
// (mpi1's is imb2021Usage, nbc's -sync window windowUsage).
var syncUsage = map[*Suite]string{
	NBCSuite: `  -root_shift on|off  on: Ibcast, Igather(v), Iscatter(v), Ireduce and their
                _pure move the root one rank after every repetition (default off)
`,
	MPI4Suite: `  -sync on|off  a barrier after every repetition, untimed (default on)
  -root_shift on|off  taken as IMB-MPI4 takes it: a persistent request keeps
                the root of its *_init call, 0, either way (default off)
`,
	RMASuite: `  -sync on|off, -root_shift on|off  taken and recorded as IMB-RMA takes them:
                no benchmark of it has a barrier per repetition or a root
`,
}

// aggrModeUsage is the help of ext's -aggregate_mode.
const aggrModeUsage = `  -aggregate_mode aggregate|non_aggregate|multi  run the aggregate or
                the non-aggregate tables only, or both (multi, the default)
`
