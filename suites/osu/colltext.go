package osu

import "mpibench/analysis/result"

// The shapes of the collective tests that the point-to-point layout does
// not cover: the non-blocking tests (osu_util_mpi.c print_preamble_nbc,
// print_only_header_nbc, print_stats_nbc) and the tests without a size
// column (osu_barrier, osu_ibarrier: options.show_size = 0).

// noSize says whether b prints no size column (the barriers).
func noSize(b *Benchmark) bool {
	return b.Name == "osu_barrier" || b.Name == "osu_ibarrier" || b.Name == "osu_barrier_persistent"
}

// ownShape says whether the collective renderers here draw b.
func ownShape(b *Benchmark) bool { return b.Kind == NonBlocking || noSize(b) }

// collPreamble is print_preamble_nbc: the title and the Overall line.
func (t *Text) collPreamble(b *Benchmark) error {
	t.Printf("\n%s\n", Title(b))
	if b.Kind == NonBlocking {
		t.Printf("# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n\n")
	}
	return t.Err()
}

// nbcColumns are print_only_header_nbc's columns after Overall.
var (
	nbcColumns     = []string{"Compute(us)", "Pure Comm.(us)", "Overlap(%)"}
	nbcFullColumns = []string{"Compute(us)", "Coll. Init(us)", "MPI_Test(us)", "MPI_Wait(us)", "Pure Comm.(us)",
		"Min Comm.(us)", "Max Comm.(us)", "Overlap(%)"}
)

// collHeader is print_only_header_nbc, or print_only_header without the
// size column.
func (t *Text) collHeader(b *Benchmark, o *Options) error {
	first := "Avg Latency(us)"
	if b.Kind == NonBlocking {
		first = "Overall(us)"
	}
	if noSize(b) {
		t.Printf("# %s", first)
	} else {
		t.Printf("%-*s%*s", sizeWidth, "# Size", fieldWidth, first)
	}
	switch {
	case b.Kind != NonBlocking:
		if o.Full {
			t.Printf("%*s%*s%*s", fieldWidth, "Min Latency(us)", fieldWidth, "Max Latency(us)", iterWidth,
				"Iterations")
		}
	case o.Full:
		t.columns(nbcFullColumns)
	default:
		t.columns(nbcColumns)
	}
	return t.tail(o)
}

func (t *Text) columns(names []string) {
	for _, n := range names {
		t.Printf("%*s", fieldWidth, n)
	}
}

// tail is the header's end: Validation, -z's columns, -D's Transmit Size.
func (t *Text) tail(o *Options) error {
	if o.Validate {
		t.Printf("%*s", fieldWidth, "Validation")
	}
	for _, p := range o.Percentiles {
		pad := fieldWidth - len("Px Tail Lat(us)")
		if p > 9 {
			pad--
		}
		t.Printf("%*sP%d Tail Lat(us)", pad, "", p)
	}
	if o.DDT != nil {
		t.Printf("%*s", fieldWidth, "Transmit Size")
	}
	t.Printf("\n")
	return t.Err()
}

// collRow is print_stats_nbc, or print_stats without the size column
// (the average in %17.2f, the Overall in %13.2f).
func (t *Text) collRow(b *Benchmark, o *Options, r *result.Record) error {
	switch {
	case !noSize(b):
		t.Printf("%-*d%*.2f", sizeWidth, r.Bytes, fieldWidth, r.TAvg)
	case b.Kind == NonBlocking:
		t.Printf("%*.2f", 13, r.TAvg)
	default:
		t.Printf("%*.2f", 17, r.TAvg)
	}
	n := r.OSU.NBC
	switch {
	case n == nil:
		if o.Full {
			t.Printf("%*.2f%*.2f%*d", fieldWidth, r.TMin, fieldWidth, r.TMax, iterWidth, r.Reps)
		}
	case o.Full:
		t.values(n.Compute, n.Init, n.Test, n.Wait, n.Pure, n.PureMin, n.PureMax, n.Overlap)
	default:
		t.values(n.Compute, n.Pure, n.Overlap)
	}
	return t.rowTail(o, r)
}

// rowTail is the end of every row: Validation, -z's figures, -D's
// Transmit Size.
func (t *Text) rowTail(o *Options, r *result.Record) error {
	if o.Validate {
		t.Printf("%*s", fieldWidth, r.OSU.Validation)
	}
	for _, p := range r.OSU.Tail {
		t.Printf("%*.2f", fieldWidth, p.Value)
	}
	if o.DDT != nil {
		t.Printf("%*d", fieldWidth, r.OSU.Transmit)
	}
	t.Printf("\n")
	return t.Err()
}

func (t *Text) values(v ...float64) {
	for _, x := range v {
		t.Printf("%*.2f", fieldWidth, x)
	}
}

// barrier is the driver's run of osu_barrier and osu_ibarrier: no
// datatype line and one row, measured at size 0 (they take no -m).
func (d *driver) barrier() error {
	r := d.run
	r.Env.Cases.SetTotal(1)
	r.TypeName, r.TypeSize = typeNames[0], 1
	if err := d.speak(func() error { return d.text.Header(r.Bench, r.Opts) }); err != nil {
		return err
	}
	_, err := d.size(0)
	return err
}
