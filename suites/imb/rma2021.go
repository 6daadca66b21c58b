package imb

import (
	"strings"

	"mpibench/analysis/result"
	"mpibench/suites/imb/kernel"
)

// IMB-RMA of Intel MPI Benchmarks 2021.11: MPI-3 one-sided communication
// with passive-target synchronization (MPI_Win_lock, MPI_Win_flush,
// MPI_Win_flush_local, MPI_Win_lock_all). The definitions are
// src_c/IMB_rma_put.c, IMB_rma_get.c and IMB_rma_atomic.c; names, order, classes and modes
// come from IMB_parse_name_rma.c (IMB_set_bmark) and IMB_bnames_rma.h
// (DEFC, the default list; ALLC, every benchmark). This table holds the
// put/get benchmarks, Exchange_put/_get, the atomics and Truly_passive_put:
// all 19 of ALLC (docs/imb.md, "IMB-RMA").

// RMA3Spec marks an IMB-RMA benchmark: who transfers to whom, the call
// and the completion.
type RMA3Spec struct {
	Flow  kernel.RMA3Flow
	Op    kernel.RMA3Op
	Bidir bool // Bidir_put, Bidir_get: both ranks of the pair are origins
	Local bool // *_local: MPI_Win_flush_local(_all) completes the transfers
	// Element: IMB's SingleElementTransfer (Fetch_and_op,
	// Compare_and_swap), one 4-byte element at one length, 4, whatever
	// the lengths asked for (IMB_2018.c); class SingleTransfer otherwise.
	Element bool
}

// rmaModes are the tables of the one-target benchmarks in IMB-RMA's order:
// its RUN_MODES[0] is non-aggregate, RUN_MODES[1] aggregate.
var rmaModes = []Mode{NonAggregate, Aggregate}

// rmaRow is a row of the IMB-RMA table.
func rmaRow(name string, c Class, s RMA3Spec, notDefault bool) Benchmark {
	calls := [...]string{"MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op",
		"MPI_Compare_and_swap"}[s.Op]
	var modes []Mode
	switch {
	case s.Flow == kernel.RMA3Pair && s.Local:
		calls += ", MPI_Win_lock, MPI_Win_flush_local"
		modes = rmaModes
	case s.Flow == kernel.RMA3Pair:
		calls += ", MPI_Win_lock, MPI_Win_flush"
		modes = rmaModes
	case s.Flow == kernel.RMA3Truly:
		calls += ", MPI_Win_lock, MPI_Win_flush, MPI_Barrier; the target waits, then computes"
	case s.Flow == kernel.RMA3Exch:
		calls += " to both neighbours, MPI_Win_lock, MPI_Win_flush"
	case s.Local:
		calls += ", MPI_Win_lock_all, MPI_Win_flush_local_all"
	default:
		calls += ", MPI_Win_lock_all, MPI_Win_flush_all"
	}
	if s.Flow == kernel.RMA3Truly {
		modes = nil
	}
	b := Benchmark{Name: name, Class: c, Calls: calls, TimeScale: 1, Modes: modes, RMA3: &s, NotDefault: notDefault,
		Reduction: s.Op.Unit() == 4 && s.Op != kernel.RMA3CAS}
	if c != Collective && s.Flow != kernel.RMA3Truly {
		b.Factor = 1 // Mbytes/sec; MultPassiveTransfer scales it by the targets (rmaBWScale)
	}
	return b
}

// RMA is the IMB-RMA table in ALLC's order. Get_local and Get_all_local
// are not in DEFC (IMB: "very similar to Unidir_get and One_get_all"):
// they run when named.
var RMA = []Benchmark{
	rmaRow("Unidir_put", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Pair}, false),
	rmaRow("Unidir_get", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Pair, Op: kernel.RMA3Get}, false),
	rmaRow("Bidir_put", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Pair, Bidir: true}, false),
	rmaRow("Bidir_get", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Pair, Op: kernel.RMA3Get, Bidir: true}, false),
	rmaRow("One_put_all", MultPassiveTransfer, RMA3Spec{Flow: kernel.RMA3OneAll}, false),
	rmaRow("One_get_all", MultPassiveTransfer, RMA3Spec{Flow: kernel.RMA3OneAll, Op: kernel.RMA3Get}, false),
	rmaRow("All_put_all", Collective, RMA3Spec{Flow: kernel.RMA3AllAll}, false),
	rmaRow("All_get_all", Collective, RMA3Spec{Flow: kernel.RMA3AllAll, Op: kernel.RMA3Get}, false),
	rmaRow("Put_local", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Pair, Local: true}, false),
	rmaRow("Get_local", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Pair, Op: kernel.RMA3Get, Local: true}, true),
	rmaRow("Put_all_local", MultPassiveTransfer, RMA3Spec{Flow: kernel.RMA3OneAll, Local: true}, false),
	rmaRow("Get_all_local", MultPassiveTransfer, RMA3Spec{Flow: kernel.RMA3OneAll, Op: kernel.RMA3Get, Local: true}, true),
	rmaRow("Exchange_put", Collective, RMA3Spec{Flow: kernel.RMA3Exch}, false),
	rmaRow("Exchange_get", Collective, RMA3Spec{Flow: kernel.RMA3Exch, Op: kernel.RMA3Get}, false),
	rmaRow("Accumulate", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Pair, Op: kernel.RMA3Acc}, false),
	rmaRow("Get_accumulate", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Pair, Op: kernel.RMA3GetAcc}, false),
	rmaRow("Fetch_and_op", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Pair, Op: kernel.RMA3FetchOp, Element: true}, false),
	rmaRow("Compare_and_swap", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Pair, Op: kernel.RMA3CAS, Element: true}, false),
	rmaRow("Truly_passive_put", SingleTransfer, RMA3Spec{Flow: kernel.RMA3Truly}, false),
}

// listComments are the lines IMB 2021.11's -list prints under benchmark
// name of s: IMB-RMA's descr->comments (src_cpp/RMA/RMA_benchmark.cpp);
// the other programs have none.
func (s *Suite) listComments(name string) []string {
	if s != RMASuite {
		return nil
	}
	return rmaComments[name]
}

var rmaComments = map[string][]string{
	"Compare_and_swap": {"Uses MPI_INT data type"},
	"Truly_passive_put": {"The benchmark measures execution time of MPI_Put for 2 cases:",
		"1) The target is waiting in MPI_Barrier call (t_pure value)",
		"2) The target performs computation and then enters MPI_Barrier routine (t_ovrl value)"},
}

// RMASuite is IMB-RMA with IMB 2021.11's IMB_settings.h (MAXMSGLOG 22,
// MSGSPERSAMPLE 1000, MSGS_NONAGGR 100, OVERALL_VOL 40 MiB, N_BARR 2) and
// its default -time, SECS_PER_SAMPLE 10 s.
var RMASuite = &Suite{Name: result.SuiteRMA, Part: "MPI-RMA", NPMin: 2, SingleQ: 2, Table: RMA,
	Settings: Settings{MaxMsgLog: 22, MsgsPerSample: 1000, MsgsNonAggr: 100, OverallVol: 40 << 20, NBarr: 2}}

func init() { DefaultTimeLimit[result.SuiteRMA] = nbcTimeLimit }

// rmaRates sets an IMB-RMA record's Mbytes/sec as IMB 2021.11's
// IMB_output.c computes it: bytes per µs (MB = 10^6, where IMB 3.0 used
// 2^20), and for a MultPassiveTransfer origin, which moves X bytes to each
// of the P−1 other ranks per repetition, P−1 times that
// (IMB_adjust_timings_scale, IMB_init.c), which is 0 on one process.
func rmaRates(r *result.Record, b *Benchmark) {
	r.MBps = 0
	if b.RMA3.Flow == kernel.RMA3Truly {
		r.TOvrl = r.TMax // the origin's
	}
	if b.Factor == 0 || r.TMax <= 0 {
		return
	}
	scale := 1
	if b.Class == MultPassiveTransfer {
		// IMB keeps 1 on one process, where no byte moves; 0 here.
		scale = r.NProcs - 1
	}
	r.MBps = b.Factor * float64(scale*r.Bytes) / r.TMax
}

const rmaSummary = "run IMB-RMA (MPI-3 one-sided put/get, IMB 2021)"

// rmaUsage adapts the IMB suites' help to IMB-RMA, a 2021 suite, and says
// which of IMB-RMA's benchmarks it has.
func rmaUsage(u string) string {
	u = strings.NewReplacer(
		"IMB-RMA 3.0 benchmarks (all of them when none is named; names are\ncase-insensitive). ",
		"IMB-RMA benchmarks of IMB 2021.11 (IMB's default list, all but Get_local\n"+
			"and Get_all_local, when none is named; names are case-insensitive).\n",
		"IMB 3.0 repetition count", "IMB repetition count",
		"IMB 3.0's counts, unbounded", "IMB's counts, unbounded").Replace(u)
	line, lines := "  Benchmarks (all 19 of IMB-RMA 2021.11):", ""
	for _, n := range RMASuite.Names() {
		if len(line)+len(n) > 76 {
			lines, line = lines+line+"\n", "               "
		}
		line += " " + n
	}
	return u + lines + line + "\n"
}
