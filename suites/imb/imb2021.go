package imb

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"mpibench/run/clocksync"
	"mpibench/run/mpijob"
	"mpibench/suites/imb/kernel"
)

// -imb 2021 (mpi1): IMB-MPI1 2021.11's defaults and definitions, where
// IMB 3.0's is the default. What changes (docs/imb.md, "Coming from IMB 2021"):
//   - the default list: defaultNames2021;
//   - the collectives but Barrier time every call alone, with an
//     MPI_Barrier after each outside the time (-sync on) and the root
//     fixed at 0 (-root_shift off) (IMB_bcast.c, IMB_reduce.c, ...;
//     kernel/kernels.c, mb_run21);
//   - Reduce_scatter: every rank receives X bytes of a Q·X-byte vector
//     (IMB_reduce_scatter.c, recvcounts[i] = size/s_size; IMB 3.0 splits
//     X bytes over the Q ranks);
//   - throughputs in MB = 10^6 bytes (IMB_output.c), and the header lines
//     of IMB-MPI1 2021.11 (report/imbtext2021.go);
//   - records carry context.imb "2021" (IMB 3.0's "3.0").
//
// -iter_policy dynamic and -time 10 are mpibench's defaults already. The
// warm-up is IMB 2021's, before every sample at its length, in place of
// IMB 3.0's N_WARMUP runs at the largest length (warmup2021.go), and a
// benchmark stops with IMB 2021's time-out line (timeout2021.go).
//
// -imb 2021 (ext): IMB-EXT 2021.11's definitions: every transfer at
// offset 0 of a max(X, 4)-byte window (ext.go, rmaWindowSize2021), Window
// with MSGS_NONAGGR repetitions (windowMode), Accumulate's fences and
// timing (kernel/rma.c, acc2021), MB = 10^6, records with context.imb
// "2021".

const imb2021 = "2021"

// defaultNames2021 is IMB-MPI1 2021.11's default list in its run order
// (IMB-MPI1 without names; MPI1_benchmark.cpp, the benchmarks not marked
// non-default).
var defaultNames2021 = []string{"PingPong", "PingPing", "Sendrecv", "Exchange", "Allreduce", "Reduce",
	"Reduce_local", "Reduce_scatter", "Reduce_scatter_block", "Allgather", "Allgatherv", "Gather", "Gatherv",
	"Scatter", "Scatterv", "Alltoall", "Alltoallv", "Bcast", "Barrier"}

// setIMB reads -imb.
func (f *Flags2021) setIMB(val string) error {
	switch val {
	case "3", "3.0":
		f.IMB = ""
	case imb2021:
		f.IMB = imb2021
	default:
		return usagef("-imb %q: want 3 (IMB 3.0, the default) or 2021 (IMB 2021.11's defaults and definitions)", val)
	}
	return nil
}

// check2021 refuses -imb 2021 outside mpi1 and ext and, in mpi1 without
// it, -root_shift and IMB 2021's spellings of -sync (on, off): IMB 3.0's
// loops take -sync barrier, none or window. checkSuite refuses -sync and
// -root_shift in ext and io; IMB-NBC, IMB-MPI4 and IMB-RMA are IMB 2021's
// and take both as they are.
func (f *Flags2021) check2021(s *Suite) error {
	switch {
	case f.IMB == imb2021 && s != MPI1Suite && s != EXTSuite:
		return usagef("-imb 2021 is a flag of mpibench mpi1 and ext only")
	case s == MPI1Suite && f.IMB != imb2021 && f.RootShift != "":
		return usagef("-root_shift %s: a flag of IMB 2021's collectives; add -imb 2021", f.RootShift)
	case f.Sync == syncWindow || f.WindowTime > 0 || s == NBCSuite:
		return f.checkWindow(s)
	case s != MPI1Suite || f.IMB == imb2021:
	case f.typedSync() == "on" || f.typedSync() == "off":
		// IMB 3.0 has no -sync: its words are IMB 2021's, whose loop is
		// another (a barrier after every call).
		return usagef("-sync %s: IMB 2021's spelling, for its loop (a barrier after every call); add -imb 2021, "+
			"or write -sync barrier, none or window for IMB 3.0's", f.typedSync())
	}
	return nil
}

// version is the IMB a record's context names: "2021" for -imb 2021 and
// for the suites IMB 3.0 does not have, else "3.0".
func (f *Flags2021) version(s *Suite) string {
	if f.IMB == imb2021 || (s != MPI1Suite && s != EXTSuite && s != IOSuite) {
		return imb2021
	}
	return "3.0"
}

// setRun sets the IMB 2021 definition and -sync on a kernel call of b in
// an MPI-1 run.
func (f *Flags2021) setRun(r *kernel.Run, b *Benchmark) {
	r.IMB2021 = f.IMB == imb2021
	if f.Sync == clocksync.None && b.Class == Collective {
		// IMB 3.0's loop with -sync none: not its N_BARR barriers before
		// the timer (IMB_allreduce.c, IMB_do_n_barriers) either.
		r.Barriers = 0
	}
	r.NoSync = f.Sync == "off" || f.Sync == clocksync.None
	r.RootShift = f.RootShift == "on"
	f.setBarrier(r)
}

// rsBlock tells whether b is Reduce_scatter under IMB 2021's definition:
// X bytes to every rank.
func (f *Flags2021) rsBlock(b *Benchmark) bool {
	return f.IMB == imb2021 && b.Kernel == kernel.ReduceScatter
}

// rates are the throughputs of IMB 2021 (MB = 10^6 bytes) for its
// benchmarks and for every benchmark under -imb 2021.
func (f *Flags2021) rates(b *Benchmark) bool { return b.Since >= 2021 || f.IMB == imb2021 }

// imb2021Usage is the help of -imb, -sync and -root_shift.
const imb2021Usage = `  -imb 3|2021   2021: IMB-MPI1 2021.11's default list, header and definitions
                (collectives timed call by call, Reduce_scatter X bytes per
                rank, MB = 10^6); records' context.imb says which (default 3)
  -sync barrier|none  the collectives: IMB 3.0's loops run N_BARR barriers
                before the timed loop (barrier, the default) or none at all;
                -imb 2021: on|off (same as barrier|none), a barrier after
                every call, untimed (default on); window below
  -root_shift on|off  -imb 2021: move the root after every call (default off)
`

// printList is -list: rank 0 prints the suite's benchmarks as IMB 2021.11
// does (src_cpp/imb.cpp, main): the program, "List of benchmarks:", the
// program part, then every name, alphabetically, indented by four spaces,
// "(non-default)" after those a run without names leaves out (which
// depends on -imb). Nothing is measured.
func (s *Suite) printList(cfg *Config, env *mpijob.Env) int {
	if env.World.Rank() != 0 {
		return 0
	}
	defaults, _ := cfg.F.selectNames(s, nil)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nList of benchmarks:\n%s:\n", env.Ctx.Tool, s.program())
	for _, n := range s.SortedNames() {
		note := ""
		if !slices.Contains(defaults, n) {
			note = " (non-default)"
		}
		fmt.Fprintf(&b, "    %s%s\n", n, note)
		for _, c := range s.listComments(n) {
			fmt.Fprintf(&b, "        %s\n", c)
		}
	}
	if _, err := io.WriteString(env.Stdout, b.String()); err != nil {
		return env.Fail(fmt.Errorf("writing the list: %w", err))
	}
	return 0
}
