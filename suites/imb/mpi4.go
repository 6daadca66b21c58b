package imb

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/run/mpijob"
	"mpibench/suites/imb/kernel"
)

// IMB-MPI4 of Intel MPI Benchmarks 2021.11: the persistent versions of
// IMB-NBC's thirteen collectives (src_c/IMB_bnames_mpi4.h: DEFC, the
// default list, and ALLC, each benchmark followed by its _persist_pure
// variant; IMB_parse_name_mpi4.c IMB_set_bmark). They measure as IMB-NBC's
// do (IMB_bcast.c IMB_bcast_persist and IMB_bcast_persist_pure ...
// IMB_barrier.c), except that the request is made once before the loop
// with the *_init call, each repetition runs MPI_Start, the CPU work and
// MPI_Wait, and MPI_Request_free comes after the loop. The loops are
// kernel/nbc.c's with the persistent flag; sizes, settings, warm-up and
// output are IMB-NBC's (IMB_mem_manager.c and IMB_output.c treat MPI4 and
// NBC alike).

// MPI4 is the IMB-MPI4 benchmark table in ALLC's order.
var MPI4 = mpi4Table()

// mpi4Name is IMB-MPI4's name of an IMB-NBC call: Ibcast → Bcast_persist.
func mpi4Name(nbc string) string {
	return strings.ToUpper(nbc[1:2]) + nbc[2:] + "_persist"
}

// persistCall is MPI 4.0's *_init call of an IMB-NBC call: Ibcast →
// MPI_Bcast_init. The table (and so `mpibench list`, the same in every
// build) names MPI 4.0's calls; records name the ones this build calls.
func persistCall(nbc string) string {
	return "MPI_" + strings.TrimSuffix(mpi4Name(nbc), "_persist") + "_init"
}

func mpi4Table() []Benchmark {
	var t []Benchmark
	for _, c := range nbcCalls {
		call := persistCall(c.name) + " (once), MPI_Start, MPI_Wait"
		b := Benchmark{Name: mpi4Name(c.name), Class: Collective, Calls: call + ", CPU work",
			Reduction: c.reduction, TimeScale: 1, NoBytes: c.kind == kernel.Ibarrier, Modes: []Mode{NonBlocking},
			NBC: &NBCSpec{Kind: c.kind, Persist: true}}
		pure := b
		pure.Name, pure.Calls, pure.Modes = b.Name+"_pure", call, nil
		pure.NBC = &NBCSpec{Kind: c.kind, Pure: true, Persist: true}
		pure.NotDefault = true // IMB-MPI4 runs the _persist_pure variants when named
		t = append(t, b, pure)
	}
	return t
}

// MPI4Suite is IMB-MPI4, with IMB-NBC's settings (the same IMB_settings.h)
// and its default -time, SECS_PER_SAMPLE.
var MPI4Suite = &Suite{Name: result.SuiteMPI4, Part: "MPI-4", NPMin: 2, SingleQ: 2, Table: MPI4,
	Settings: NBCSuite.Settings}

func init() { DefaultTimeLimit[result.SuiteMPI4] = nbcTimeLimit }

// persistCalls is what a record of b says it measured: its calls, the
// *_init one with the prefix this build uses (MPI_ or Open MPI's MPIX_);
// "" for other benchmarks.
func persistCalls(b *Benchmark) string {
	if b.NBC == nil || !b.NBC.Persist {
		return ""
	}
	return cmp.Or(kernel.PersistAPI(), "MPI") + strings.TrimPrefix(b.Calls, "MPI")
}

// MPI4Command is the mpi4 command: MPI4Suite's, except that a binary
// built against a library without persistent collectives says so in one
// line (rank 0) and exits 0 on every rank, before MPI_Init; help works.
func MPI4Command() mpijob.Entry {
	c := MPI4Suite.Command()
	run := c.Main
	c.Main = func(args []string, stdout, stderr io.Writer) int {
		// A binary without MPI fails as every suite's does.
		if kernel.PersistAPI() != "" || mpi.Flavor == "none" || mpijob.HasHelp(args) {
			return run(args, stdout, stderr)
		}
		if _, err := ParseArgs(args); err != nil {
			return run(args, stdout, stderr) // the run reports bad input as for every suite
		}
		if mpijob.LauncherRank() != "0" {
			return 0
		}
		if _, err := fmt.Fprintln(stdout, NoPersistMessage(mpi.Flavor)); err != nil {
			_, _ = fmt.Fprintf(stderr, "mpibench mpi4: %v\n", err)
			return 1
		}
		return 0
	}
	return c
}

// NoPersistMessage is the line of an mpi4 run where flavor's library, as
// this binary was compiled against it, has no persistent collectives.
func NoPersistMessage(flavor string) string {
	var calls []string
	for _, c := range nbcCalls {
		calls = append(calls, persistCall(c.name))
	}
	return fmt.Sprintf("mpibench mpi4: nothing measured: the MPI library this binary was built against (%s) "+
		"has no persistent collectives, neither MPI 4.0's %s nor Open MPI's MPIX_ versions of them",
		flavor, strings.Join(calls, ", "))
}
