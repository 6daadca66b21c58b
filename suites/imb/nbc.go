package imb

import (
	"strings"

	"mpibench/analysis/result"
	"mpibench/suites/imb/kernel"
)

// IMB-NBC of Intel MPI Benchmarks 2021.11: the thirteen non-blocking
// collectives of src_c/IMB_bnames_nbc.h (DEFC, the default list, in its
// order) and their _pure variants (ALLC: each benchmark followed by its
// _pure variant). A benchmark without _pure runs its _pure loop first,
// then the overlapped loop, and prints t_ovrl, t_pure, t_CPU and
// overlap[%] (IMB_bcast.c IMB_ibcast ... IMB_barrier.c IMB_ibarrier;
// IMB_parse_name_nbc.c IMB_set_bmark); a _pure variant times the call and
// MPI_Wait alone and prints t_min, t_max, t_avg. Ibarrier and
// Ibarrier_pure are IMB's Sync type: no #bytes column, one sample.

// NBCSpec marks an IMB-NBC benchmark: its loop, and whether it is the
// _pure variant.
type NBCSpec struct {
	Kind    kernel.NBCKind
	Pure    bool
	Persist bool // IMB-MPI4's *_persist: one persistent request (imb/mpi4.go)
}

// nbcCalls are the thirteen collectives in DEFC's order, with their loop
// and whether they reduce MPI_FLOATs (Bmark->reduction).
var nbcCalls = []struct {
	name      string
	kind      kernel.NBCKind
	reduction bool
}{
	{"Ibcast", kernel.Ibcast, false}, {"Iallgather", kernel.Iallgather, false},
	{"Iallgatherv", kernel.Iallgatherv, false}, {"Igather", kernel.Igather, false},
	{"Igatherv", kernel.Igatherv, false}, {"Iscatter", kernel.Iscatter, false},
	{"Iscatterv", kernel.Iscatterv, false}, {"Ialltoall", kernel.Ialltoall, false},
	{"Ialltoallv", kernel.Ialltoallv, false}, {"Ireduce", kernel.Ireduce, true},
	{"Ireduce_scatter", kernel.IreduceScatter, true}, {"Iallreduce", kernel.Iallreduce, true},
	{"Ibarrier", kernel.Ibarrier, false},
}

// NBC is the IMB-NBC benchmark table in ALLC's order.
var NBC = nbcTable()

func nbcTable() []Benchmark {
	var t []Benchmark
	for _, c := range nbcCalls {
		call := "MPI_" + c.name + ", MPI_Wait"
		b := Benchmark{Name: c.name, Class: Collective, Calls: call + ", CPU work", Reduction: c.reduction,
			TimeScale: 1, NoBytes: c.kind == kernel.Ibarrier, Modes: []Mode{NonBlocking},
			NBC: &NBCSpec{Kind: c.kind}}
		pure := b
		pure.Name, pure.Calls, pure.Modes, pure.NBC = c.name+"_pure", call, nil, &NBCSpec{Kind: c.kind, Pure: true}
		pure.NotDefault = true // IMB-NBC runs the _pure variants when named
		t = append(t, b, pure)
	}
	return t
}

// NBCSuite is IMB-NBC. Its settings are IMB 2021.11's IMB_settings.h
// (MAXMSGLOG 22, MSGSPERSAMPLE 1000, MSGS_NONAGGR 100, OVERALL_VOL 40 MiB,
// N_BARR 2); the CPU work is calibrated per sample to t_pure, so
// TARGET_CPU_SECS is not used. Its default -time is SECS_PER_SAMPLE, 10 s.
var NBCSuite = &Suite{Name: result.SuiteNBC, Part: "MPI-NBC", NPMin: 2, SingleQ: 2, Table: NBC,
	Settings: Settings{MaxMsgLog: 22, MsgsPerSample: 1000, MsgsNonAggr: 100, OverallVol: 40 << 20, NBarr: 2}}

// nbcTimeLimit is SECS_PER_SAMPLE of IMB_settings.h.
const nbcTimeLimit = 10

func init() { DefaultTimeLimit[result.SuiteNBC] = nbcTimeLimit }

// nbcBufferSizes are the send and receive buffers of an IMB-NBC loop for
// x bytes per process on q processes (IMB_mem_manager.c,
// IMB_init_buffers_iter): q blocks where the call sends or receives one
// per rank; Ireduce_scatter reduces q blocks and keeps one (IMB 2021's
// recvcounts are x/4 floats for every rank).
func nbcBufferSizes(k kernel.NBCKind, x, q int) (send, recv int) {
	switch k {
	case kernel.Iallgather, kernel.Iallgatherv, kernel.Igather, kernel.Igatherv:
		return x, q * x
	case kernel.Iscatter, kernel.Iscatterv, kernel.IreduceScatter:
		return q * x, x
	case kernel.Ialltoall, kernel.Ialltoallv:
		return q * x, q * x
	case kernel.Ibarrier:
		return 0, 0
	}
	return x, x
}

// NBCOverlap is IMB-NBC's overlap in percent (IMB_output.c,
// IMB_display_times): 100 · (t_pure + t_CPU − t_ovrl) / max(t_pure,
// t_CPU), clamped to [0, 100], from the figures of the rank with the
// largest t_ovrl. IMB-IO's formula divides by the minimum and mpibench
// leaves it unclamped (Overlap); IMB-NBC's own definition is kept here.
func NBCOverlap(tPure, tCPU, tOvrl float64) float64 {
	m := max(tPure, tCPU)
	if m <= 0 {
		return 0
	}
	return 100 * max(0, min(1, (tPure+tCPU-tOvrl)/m))
}

// nbcUsage adapts the IMB suites' help to IMB-NBC or IMB-MPI4 (title), 2021
// suites.
func nbcUsage(u, title string) string {
	return strings.NewReplacer(
		title+" 3.0 benchmarks (all of them when none is named;",
		title+" benchmarks of IMB 2021.11 (the 13 without _pure when none is named;",
		"IMB 3.0's counts, unbounded", "IMB's counts, unbounded").Replace(u)
}
