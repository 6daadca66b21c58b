package osu

import (
	"fmt"
	"math"

	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/run/cases"
	"mpibench/run/mpijob"
)

// The start-up tests (c/mpi/startup): osu_init, the time of MPI_Init on
// every rank, and osu_hello, MPI_Init and one line.
//
// osu_init.c reads CLOCK_REALTIME right before and after its MPI_Init
// (omb_mpi_init) and turns the difference into whole milliseconds in a
// C long (seconds·1e3, then plus nanoseconds/1e6, truncated); rank 0
// gets their minimum, maximum and sum over MPI_COMM_WORLD (three
// MPI_Reduce of MPI_LONG) and prints the sum divided by the processes in
// integer arithmetic. mpibench calls MPI_Init_thread once, in its common
// start-up (run/mpijob, mpi.Init), for every command; it reads
// CLOCK_MONOTONIC around that call alone (mpi.InitDuration), and osu_init
// reports it: each rank's nanoseconds, truncated to milliseconds as OSU's
// arithmetic truncates them, gathered to rank 0 in one MPI_Gather of two
// doubles per rank.

// optsInit is OMBOP__STARTUP__INIT; osu_hello.c reads no options.
const optsInit = "I"

func init() {
	register(
		&Benchmark{Name: "osu_init", Title: "Init Test", Kind: Startup, Opts: optsInit,
			Calls: "MPI_Init (timed in mpibench's start-up)"},
		&Benchmark{Name: "osu_hello", Title: "Hello World Test", Kind: Startup,
			Calls: "MPI_Init"},
	)
}

// startup runs osu_init or osu_hello.
func (d *driver) startup() error {
	r := d.run
	if r.Bench.Name == "osu_hello" {
		// osu_hello.c: HEADER, then the processes.
		return d.speak(func() error {
			return d.text.Line(fmt.Sprintf("%s\nThis is a test with %d processes", Title(r.Bench), r.Size))
		})
	}
	r.Env.Cases.SetTotal(1)
	step := mpijob.Step{
		Case: cases.Case{Suite: result.SuiteOSU, Benchmark: r.Bench.Name, Procs: r.Size, Reps: 1,
			Key: fmt.Sprintf("%s/%s/np%d", result.SuiteOSU, r.Bench.Name, r.Size)},
		Measure: d.initRecord,
		Show: func(recs []*result.Record) error {
			for _, rec := range recs {
				if err := d.text.Line(Title(r.Bench) + "\n" + initLine(rec)); err != nil {
					return err
				}
			}
			return nil
		},
	}
	_, _, err := d.loop.Run(step)
	return err
}

// initRecord gathers every rank's MPI_Init time; rank 0's record has
// the minimum, maximum and mean in µs, and every rank's time in
// Samples, in rank order.
func (d *driver) initRecord() ([]*result.Record, error) {
	r := d.run
	all, err := r.World.GatherFloat64s([]float64{float64(mpi.InitDuration().Nanoseconds()) / 1e3})
	if err != nil || r.Rank != 0 {
		return nil, err
	}
	rec := &result.Record{Suite: result.SuiteOSU, Benchmark: r.Bench.Name, Class: Startup.String(), Multi: -1,
		Group: -1, NProcs: r.Size, Groups: [][]int{ranks(r.Size)}, Reps: 1, Context: r.Env.Ctx, Samples: all,
		TMin: math.Inf(1), TMax: math.Inf(-1)}
	for _, us := range all {
		rec.TMin, rec.TMax, rec.TAvg = min(rec.TMin, us), max(rec.TMax, us), rec.TAvg+us/float64(len(all))
	}
	return []*result.Record{rec}, nil
}

// initMillis is OSU's whole milliseconds of a time in µs: the
// nanoseconds (recovered exactly from the µs) truncated.
func initMillis(us float64) int64 { return int64(math.Round(us*1e3)) / 1_000_000 }

// initLine is osu_init's line from its record: the minimum, maximum and
// (integer) mean of every rank's whole milliseconds.
func initLine(rec *result.Record) string {
	var lo, hi, sum int64 = math.MaxInt64, math.MinInt64, 0
	for _, us := range rec.Samples {
		ms := initMillis(us)
		lo, hi, sum = min(lo, ms), max(hi, ms), sum+ms
	}
	n := int64(max(len(rec.Samples), 1))
	return fmt.Sprintf("nprocs: %d, min: %d ms, max: %d ms, avg: %d ms", rec.NProcs, lo, hi, sum/n)
}
