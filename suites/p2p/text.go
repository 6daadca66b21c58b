package p2p

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
	"mpibench/run/mpijob"
)

// text renders the run on rank 0 in IMB-P2P's shape (imb_p2p.c:
// print_main_header, imb_p2p_print_benchmark_header, the rows of
// imb_p2p_*.c, print_main_footer); -check adds a defects column.
type text struct {
	*textout.Writer
	check bool
}

const rule = "#----------------------------------------------------------------\n"

func (t *text) start(ctx result.Context, cfg *Config) error {
	t.title(ctx.Tool)
	date := ctx.Start
	if s, err := time.Parse(time.RFC3339, ctx.Start); err == nil {
		date = s.Format("Mon Jan _2 15:04:05 2006") // asctime, as IMB-P2P
	}
	t.Printf("# Date                  : %s\n", date)
	t.Printf("# Machine               : %s\n", ctx.Machine)
	t.Printf("# System                : %s\n", ctx.System)
	t.Printf("# Release               : %s\n", ctx.Release)
	t.Printf("# Version               : %s\n", ctx.Version)
	t.Printf("# MPI Version           : %s\n", ctx.MPIVersion)
	t.Printf("# MPI Thread Environment: %s\n", ctx.ThreadLevel)
	t.Printf("#\n# Calling sequence was:\n#\n# mpibench %s\n#\n", strings.Join(ctx.Args, " "))
	t.Printf("# List of Benchmarks to run:\n#\n")
	for _, b := range cfg.Benchmarks {
		t.Printf("# %s\n", b)
	}
	t.Printf("#\n")
	t.Printf("# Minimum message length in bytes:   %d\n", slices.Min(cfg.Lengths))
	t.Printf("# Maximum message length in bytes:   %d\n", slices.Max(cfg.Lengths))
	t.Printf("#\n")
	if cfg.Check {
		t.Printf("# -check: every message is verified; the timings are not benchmark data\n#\n")
	}
	return t.Err()
}

func (t *text) invalid(b *Benchmark, n int) error {
	t.Printf("\n# !! Benchmark %s "+b.Invalid+" !!\n", b.Name, n)
	return t.Err()
}

func (t *text) benchmark(b *Benchmark, n int) error {
	t.Printf("\n" + rule)
	t.Printf("# Benchmarking %s\n", b.Title(n))
	t.Printf("# #processes = %d\n", n)
	t.Printf(rule)
	t.Printf(" %12s %12s %12s %12s %12s", "#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "Msg/sec")
	if t.check {
		t.Printf(" %12s", "defects")
	}
	t.Printf("\n")
	return t.Err()
}

func (t *text) row(r *result.Record) error {
	t.Printf(" %12d %12d %12.2f %12.2f %12.0f", r.Bytes, r.Reps, r.TAvg, r.MBps, r.MsgRate)
	if t.check {
		t.Printf(" %12.0f", r.Defects)
	}
	t.Printf("\n")
	return t.Err()
}

func (t *text) comment(s string) error {
	t.Printf("%s\n", s)
	return t.Err()
}

func (t *text) finish() error {
	t.Printf("\n\n# All processes entering MPI_Finalize\n\n")
	return t.Err()
}

// title is IMB-P2P's title lines (imb_p2p.c, print_title).
// title is IMB-P2P's "PROGRAM, IMB-P2P part" pattern naming mpibench, as
// the other IMB 2021 suites' (report/imbheader2021.go).
func (t *text) title(tool string) {
	t.Printf("#------------------------------------------------------------\n")
	t.Printf("#    %s (IMB 2021.11), IMB-P2P part\n", tool)
	t.Printf("#------------------------------------------------------------\n")
}

// printList is -list: rank 0 prints IMB-P2P's title and every benchmark,
// as IMB-P2P's -list does (imb_p2p.c, loading; there every rank prints,
// before MPI_Init). Nothing is measured.
func printList(env *mpijob.Env) int {
	if env.World.Rank() != 0 {
		return 0
	}
	t := &text{Writer: textout.New(env.Stdout)}
	t.title(mpijob.Program + " " + mpijob.Version)
	t.Printf("# List of Benchmarks to run:\n#\n")
	for _, b := range Table {
		t.Printf("# %s\n", b.Name)
	}
	t.Printf("#\n")
	if t.Err() != nil {
		return env.Fail(fmt.Errorf("writing the list: %w", t.Err()))
	}
	return 0
}
