package osu

import (
	"fmt"
	"io"

	"mpibench/suites/osu/kernel"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
)

// OSU's column layout (osu_util.h: FIELD_WIDTH, FLOAT_PRECISION; the size
// column is "%-*d" of width 10, the iterations column width 12).
const (
	fieldWidth = 20
	sizeWidth  = 10
	iterWidth  = 12
)

// Text renders records on rank 0 in OSU 7.4's shape: print_preamble,
// "# Datatype: %s.", print_only_header, and the rows of each test's main,
// column by column as osu_util.c and osu_util_mpi.c print them.
type Text struct{ *textout.Writer }

// NewText returns a Text writing to w.
func NewText(w io.Writer) *Text { return &Text{textout.New(w)} }

// Title is the first line of b's output: OSU's HEADER with its version.
func Title(b *Benchmark) string {
	if b.RMA != nil { // the one-sided BENCHMARK strings start "OSU MPI_"
		return fmt.Sprintf("# OSU %s v%s", b.Title, Version)
	}
	return fmt.Sprintf("# OSU MPI %s v%s", b.Title, Version)
}

// Preamble is print_preamble ("\n" and the title), or osu_mbw_mr's title
// and its pairs and window line.
func (t *Text) Preamble(b *Benchmark, o *Options, pairs int) error {
	if noValidationWarmup(b, o) {
		// osu_alltoall_persistent.c ...: before print_preamble, no newline.
		t.Printf("# Setting number of validation warmup iterations to 0.")
	}
	if ownShape(b) {
		return t.collPreamble(b) // osu/colltext.go
	}
	if a := atomOf(b); a != nil && a.op != kernel.AtomGetAcc {
		return nil // print_header_one_sided before each datatype's table (osu/atom.go)
	}
	if b.RMA != nil {
		return t.rmaPreamble(b, o, pairs) // osu/rma.go
	}
	if b.Kind == LatencyMT {
		// osu_latency_mt.c: main, before print_preamble (its trailing space included).
		t.Printf("# Number of Sender threads: %d \n# Number of Receiver threads: %d\n", o.Senders(), o.ReceiverThreads)
	}
	if b.Kind == LatencyMP {
		t.latMPPreamble(o) // pt2pt_mp.go
	}
	if b.Kind == MultiBandwidth && o.VaryWindow {
		t.Printf("%s\n# [ pairs: %d ] [ window size: varied ]\n\n# Uni-directional Bandwidth (MB/sec)\n", Title(b), pairs)
		return t.Err()
	}
	if b.Kind == MultiBandwidth {
		t.Printf("%s\n# [ pairs: %d ] [ window size: %d ]\n", Title(b), pairs, o.Window)
		return t.Err()
	}
	t.Printf("\n%s\n", Title(b))
	return t.Err()
}

// Datatype is the line before each datatype's table.
func (t *Text) Datatype(b *Benchmark, name string) error {
	if b.RMA != nil && b.RMA.shape == kernel.ShapeMulti {
		return nil // osu_get_multi_lat.c prints none
	}
	t.Printf("# Datatype: %s.\n", name)
	return t.Err()
}

// Header is print_only_header (osu_mbw_mr: its own header in main): the
// size and value columns, -f's, Validation, -z's, and -D's Transmit Size.
func (t *Text) Header(b *Benchmark, o *Options) error {
	if ownShape(b) {
		return t.collHeader(b, o) // osu/colltext.go
	}
	t.Printf("%-*s", sizeWidth, "# Size")
	if b.RMA != nil && b.RMA.shape == kernel.ShapeMulti {
		// osu_get_multi_lat.c: main's one header line, without -z's columns.
		t.Printf("%*s\n", fieldWidth, "Latency (us)")
		return t.Err()
	}
	switch b.Kind {
	case Bandwidth, RMABandwidth:
		t.Printf("%*s", fieldWidth, "Bandwidth (MB/s)")
	case RMALatency:
		t.Printf("%*s", fieldWidth, "Latency (us)")
	case MultiBandwidth:
		t.Printf("%*s", fieldWidth, "MB/s")
		if o.PrintRate {
			t.Printf("%*s", fieldWidth, "Messages/s")
		}
	default:
		t.Printf("%*s", fieldWidth, "Avg Latency(us)")
	}
	if o.Full && b.Kind.Collective() {
		t.Printf("%*s%*s%*s", fieldWidth, "Min Latency(us)", fieldWidth, "Max Latency(us)", iterWidth, "Iterations")
	}
	if o.Validate {
		t.Printf("%*s", fieldWidth, "Validation")
	}
	for _, p := range o.Percentiles {
		label := "Lat(us)"
		if b.Kind == Bandwidth || b.Kind == MultiBandwidth || b.Kind == RMABandwidth {
			label = "BW(MB/s)"
		}
		// OSU pads to FIELD_WIDTH - strlen("Px Tail ...") - (p > 9).
		pad := fieldWidth - len("Px Tail "+label)
		if p > 9 {
			pad--
		}
		t.Printf("%*sP%d Tail %s", pad, "", p, label)
	}
	if o.DDT != nil {
		t.Printf("%*s", fieldWidth, "Transmit Size")
	}
	t.Printf("\n")
	return t.Err()
}

// Row is one size's line, from its record.
func (t *Text) Row(b *Benchmark, o *Options, r *result.Record) error {
	if ownShape(b) {
		return t.collRow(b, o, r) // osu/colltext.go
	}
	t.Printf("%-*d", sizeWidth, r.Bytes)
	switch b.Kind {
	case Bandwidth, Congestion:
		t.Printf("%*.2f", fieldWidth, r.MBps)
	case LatencyMP:
		// osu_latency_mp.c: the latency in 10 columns, in FIELD_WIDTH with -c.
		w := sizeWidth
		if o.Validate {
			w = fieldWidth
		}
		t.Printf("%*.2f", w, r.TAvg)
	case RMABandwidth:
		t.Printf("%*.2f", fieldWidth, r.MBps)
		if b.RMA.shape == kernel.ShapeMBW { // osu_get_mbw.c: print_bw's rate, which no header names
			t.Printf("%*.2f", fieldWidth, r.MsgRate)
		}
	case MultiBandwidth:
		t.Printf("%*.2f", fieldWidth, r.MBps)
		if o.PrintRate {
			t.Printf("%*.2f", fieldWidth, r.MsgRate)
		}
	default:
		t.Printf("%*.2f", fieldWidth, r.TAvg)
	}
	if o.Full && b.Kind.Collective() {
		t.Printf("%*.2f%*.2f%*d", fieldWidth, r.TMin, fieldWidth, r.TMax, iterWidth, r.Reps)
	}
	return t.rowTail(o, r) // osu/colltext.go
}

// Line writes a line of its own (a note, a skipped case).
func (t *Text) Line(s string) error {
	t.Printf("%s\n", s)
	return t.Err()
}
