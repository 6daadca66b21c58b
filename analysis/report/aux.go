package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
)

// AuxPanel is a figure of a measurement's records beside its time or
// bandwidth, drawn in a panel of its own from the main series' Point.Aux:
// a message rate (IMB-P2P, IMB 2021's Uniband and Biband, osu_mbw_mr) or
// an overlap in percent (IMB-NBC, IMB-MPI4, OSU's non-blocking
// collectives).
type AuxPanel struct {
	Class, Title string // the panel's CSS class and title
	YLabel, Note string
	Linear       bool // a linear axis (a percentage; may be 0 or negative)
	Zero         bool // 0 is a figure, not "none"
}

var (
	rateAux = AuxPanel{Class: "rate", Title: "message rate", YLabel: "messages/s",
		Note: "Message rate: messages per second (IMB's Msg/sec, OSU's Messages/s)."}
	overlapAux = AuxPanel{Class: "overlap", Title: "overlap", YLabel: "overlap (%)", Linear: true, Zero: true,
		Note: "Overlap: the share of the communication hidden behind the computation, in percent (100: all of it)."}
)

// auxPanel is the measurement's AuxPanel as a plot of every input's main
// series; nil for none.
func (m *Measurement) auxPanel() *Measurement {
	a := m.Aux
	if a == nil {
		return nil
	}
	out := m.derived("-"+a.Class, a.YLabel, a.Note, func(p Point) (float64, bool) {
		return p.Aux, (p.Aux > 0 || a.Zero) && !math.IsNaN(p.Aux) && !math.IsInf(p.Aux, 0)
	})
	if out != nil {
		out.LinearY = a.Linear
	}
	return out
}

// syncTally sums the -sync figures of a main series' records: how the
// repetitions started and how many missed their window.
type syncTally struct {
	method          string
	window, clock   float64 // s; the largest of the records
	valid, invalid  int
	records, missed int // records, and those with an invalid repetition
}

func (t *syncTally) add(r *result.Record) {
	t.method = r.Sync
	t.window, t.clock = math.Max(t.window, r.WindowS), math.Max(t.clock, r.ClockErr)
	t.valid += r.ValidReps
	t.records++
	if r.InvalidReps != nil && *r.InvalidReps > 0 {
		t.invalid += *r.InvalidReps
		t.missed++
	}
}

// addRun notes how a main series' record was run: -sync and, for a
// message of 2 GiB or more, how its count was passed.
func (s *Series) addRun(r *result.Record) {
	if r.Sync != "" {
		if s.sync == nil {
			s.sync = &syncTally{}
		}
		s.sync.add(r)
	}
	if r.CountMode != "" && !slices.Contains(s.count, r.CountMode) {
		s.count = append(s.count, r.CountMode)
	}
}

// runNote says how the main series of a measurement were run: how they
// were synchronised, where one was run with -sync, and how the counts of
// messages of 2 GiB and more were passed; "" for neither.
func runNote(m *Measurement) string {
	var parts []string
	for _, s := range m.Series {
		if s.Kind == 0 && len(s.count) > 0 {
			parts = append(parts, fmt.Sprintf("%s: messages of 2 GiB and more passed as %s (count_mode, mpi/bigcount.h)",
				s.Label, strings.Join(s.count, ", ")))
		}
		t := s.sync
		if s.Kind != 0 || t == nil {
			continue
		}
		text := fmt.Sprintf("%s: -sync %s", s.Label, t.method)
		if t.method == "window" {
			text += fmt.Sprintf(" (window %s µs, clock error up to %s µs): %d of %d repetitions missed their window and are excluded (at %d of %d lengths)",
				textout.Number(1e6*t.window), textout.Number(1e6*t.clock), t.invalid, t.valid+t.invalid, t.missed, t.records)
		}
		parts = append(parts, text)
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, "; ") + "."
}
