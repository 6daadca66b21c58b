package p2p

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"mpibench/analysis/result"
	"mpibench/run/mpijob"
)

// text renders the run on rank 0 in IMB-P2P's shape (imb_p2p.c:
// print_main_header, imb_p2p_print_benchmark_header, the rows of
// imb_p2p_*.c, print_main_footer); -check adds a defects column.
type text struct {
	w     io.Writer
	check bool
	err   error
}

func (t *text) printf(format string, a ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, a...)
	}
}

const rule = "#----------------------------------------------------------------\n"

func (t *text) start(ctx result.Context, cfg *Config) error {
	t.title(ctx.Tool)
	date := ctx.Start
	if s, err := time.Parse(time.RFC3339, ctx.Start); err == nil {
		date = s.Format("Mon Jan _2 15:04:05 2006") // asctime, as IMB-P2P
	}
	t.printf("# Date                  : %s\n", date)
	t.printf("# Machine               : %s\n", ctx.Machine)
	t.printf("# System                : %s\n", ctx.System)
	t.printf("# Release               : %s\n", ctx.Release)
	t.printf("# Version               : %s\n", ctx.Version)
	t.printf("# MPI Version           : %s\n", ctx.MPIVersion)
	t.printf("# MPI Thread Environment: %s\n", ctx.ThreadLevel)
	t.printf("#\n# Calling sequence was:\n#\n# mpibench %s\n#\n", strings.Join(ctx.Args, " "))
	t.printf("# List of Benchmarks to run:\n#\n")
	for _, b := range cfg.Benchmarks {
		t.printf("# %s\n", b)
	}
	t.printf("#\n")
	t.printf("# Minimum message length in bytes:   %d\n", slices.Min(cfg.Lengths))
	t.printf("# Maximum message length in bytes:   %d\n", slices.Max(cfg.Lengths))
	t.printf("#\n")
	if cfg.Check {
		t.printf("# -check: every message is verified; the timings are not benchmark data\n#\n")
	}
	return t.err
}

func (t *text) invalid(b *Benchmark, n int) error {
	t.printf("\n# !! Benchmark %s "+b.Invalid+" !!\n", b.Name, n)
	return t.err
}

func (t *text) benchmark(b *Benchmark, n int) error {
	t.printf("\n" + rule)
	t.printf("# Benchmarking %s\n", b.Title(n))
	t.printf("# #processes = %d\n", n)
	t.printf(rule)
	t.printf(" %12s %12s %12s %12s %12s", "#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "Msg/sec")
	if t.check {
		t.printf(" %12s", "defects")
	}
	t.printf("\n")
	return t.err
}

func (t *text) row(r *result.Record) error {
	t.printf(" %12d %12d %12.2f %12.2f %12.0f", r.Bytes, r.Reps, r.TAvg, r.MBps, r.MsgRate)
	if t.check {
		t.printf(" %12.0f", r.Defects)
	}
	t.printf("\n")
	return t.err
}

func (t *text) comment(s string) error {
	t.printf("%s\n", s)
	return t.err
}

func (t *text) finish() error {
	t.printf("\n\n# All processes entering MPI_Finalize\n\n")
	return t.err
}

// title is IMB-P2P's title lines (imb_p2p.c, print_title).
// title is IMB-P2P's "PROGRAM, IMB-P2P part" pattern naming mpibench, as
// the other IMB 2021 suites' (report/imbheader2021.go).
func (t *text) title(tool string) {
	t.printf("#------------------------------------------------------------\n")
	t.printf("#    %s (IMB 2021.11), IMB-P2P part\n", tool)
	t.printf("#------------------------------------------------------------\n")
}

// printList is -list: rank 0 prints IMB-P2P's title and every benchmark,
// as IMB-P2P's -list does (imb_p2p.c, loading; there every rank prints,
// before MPI_Init). Nothing is measured.
func printList(env *mpijob.Env) int {
	if env.World.Rank() != 0 {
		return 0
	}
	t := &text{w: env.Stdout}
	t.title(mpijob.Program + " " + mpijob.Version)
	t.printf("# List of Benchmarks to run:\n#\n")
	for _, b := range Table {
		t.printf("# %s\n", b.Name)
	}
	t.printf("#\n")
	if t.err != nil {
		return env.Fail(fmt.Errorf("writing the list: %w", t.err))
	}
	return 0
}
