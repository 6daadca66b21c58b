package osu

import (
	"slices"

	"mpibench/analysis/result"
)

// windowSizes are osu_mbw_mr -V's windows (osu_util.h: WINDOW_SIZES).
var windowSizes = []int{1, 2, 4, 8, 16, 32, 64, 128}

// varied is osu_mbw_mr -V's table for the current datatype: every size at
// every window of windowSizes, a row of MB/s per size, then (-R 1) the
// "Message Rate Profile" of the same cases (osu_mbw_mr.c: main,
// window_varied). Each case is a record with its window.
func (d *driver) varied(sizes []int64) error {
	r := d.run
	defer func() { r.Opts.Window = DefaultWindow }()
	if err := d.speak(func() error { return d.text.windows(r.TypeName) }); err != nil {
		return err
	}
	var rows [][]*result.Record
	for _, s := range sizes {
		if r.Elements(s) == 0 {
			continue
		}
		row := make([]*result.Record, len(windowSizes))
		for i, w := range windowSizes {
			r.Opts.Window = w
			rec, err := d.windowCase(s)
			if err != nil {
				return err
			}
			row[i] = rec
		}
		rows = append(rows, row)
		if err := d.speak(func() error { return d.text.windowRow(row, false) }); err != nil {
			return err
		}
	}
	if !r.Opts.PrintRate {
		return nil
	}
	return d.speak(func() error {
		d.text.Printf("\n# Message Rate Profile\n")
		d.text.windowHeader()
		for _, row := range rows {
			if err := d.text.windowRow(row, true); err != nil {
				return err
			}
		}
		return d.text.Err()
	})
}

// windowCase measures (or, resumed, takes from the results file) one
// size at the current window; a case a resumed run hung in shows as 0.
func (d *driver) windowCase(s int64) (*result.Record, error) {
	r := d.run
	recs, kept, err := d.loop.Run(d.sizeStep(s, nil))
	switch {
	case err != nil:
		return nil, err
	case len(recs) == 0: // kept: on the ranks other than 0, or hung
		return &result.Record{Bytes: int(s), OSU: &result.OSU{}}, nil
	case !kept && r.Rank == 0 && recs[0].Defects > 0 && !slices.Contains(d.bad, r.Bench.Name):
		d.bad = append(d.bad, r.Bench.Name)
	}
	return recs[0], nil
}

// windows is the datatype line and the header of -V's tables.
func (t *Text) windows(datatype string) error {
	t.Printf("# Datatype: %s.\n", datatype)
	t.windowHeader()
	return t.Err()
}

// windowHeader is "#      " and the windows, "  %10d" each.
func (t *Text) windowHeader() {
	t.Printf("#      ")
	for _, w := range windowSizes {
		t.Printf("  %10d", w)
	}
	t.Printf("\n")
}

// windowRow is a size ("%-7d") and its MB/s or messages/s at each window.
func (t *Text) windowRow(row []*result.Record, rate bool) error {
	t.Printf("%-7d", row[0].Bytes)
	for _, rec := range row {
		v := rec.MBps
		if rate {
			v = rec.MsgRate
		}
		t.Printf("  %10.2f", v)
	}
	t.Printf("\n")
	return t.Err()
}
