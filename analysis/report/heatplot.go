package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"mpibench/analysis/matrix"
	"mpibench/internal/textout"
)

// Drawing is one plot of -format png and pdf, in the order of the HTML
// page: a measurement, a comparison or a links heat map.
type Drawing interface {
	Name() string // unique; the PNG's file name without its extension
	Plot() (*plot.Plot, error)
}

// Name is the measurement's file name: its ID.
func (m *Measurement) Name() string { return m.ID }

// heatFigure is a links matrix as a figure: the heat map of the HTML page
// (heatMap), drawn by gonum/plot for PNG and PDF, with the same squares,
// blocks past heatMaxCells ranks, colours and outlines.
type heatFigure struct {
	id, title string
	m         *matrix.Matrix
	slow      []matrix.Pair
}

func (f *heatFigure) Name() string { return f.id }

func (f *heatFigure) Plot() (*plot.Plot, error) {
	m := f.m
	blk := (m.P + heatMaxCells - 1) / heatMaxCells
	lo, _, hi := m.Summary()
	p := plot.New()
	p.Title.Text = f.title
	p.X.Label.Text = fmt.Sprintf("receiver (%s: worst %s, best %s %s", m.Mode,
		textout.Number(heatWorst(m, lo, hi)), textout.Number(heatBest(m, lo, hi)), m.Unit())
	if blk > 1 {
		p.X.Label.Text += fmt.Sprintf("; a square is %d×%d ranks, its worst pair", blk, blk)
	}
	p.X.Label.Text += ")"
	p.Y.Label.Text = "sender"
	p.Add(&heatSquares{m: m, slow: f.slow, blk: blk, lo: lo, hi: hi})
	n := float64((m.P + blk - 1) / blk)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, n, 0, n
	p.X.Tick.Marker = rankTicks{blk: blk, p: m.P}
	p.Y.Tick.Marker = rankTicks{blk: blk, p: m.P, down: true}
	return p, nil
}

// heatSquares draws the squares: row i (sender) from the top.
type heatSquares struct {
	m      *matrix.Matrix
	slow   []matrix.Pair
	blk    int
	lo, hi float64
}

func (h *heatSquares) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	n := (h.m.P + h.blk - 1) / h.blk
	square := func(i, j int) []vg.Point {
		x0, x1 := tx(float64(j)), tx(float64(j+1))
		y0, y1 := ty(float64(n-i-1)), ty(float64(n-i))
		return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := heatWorstIn(h.m, i*h.blk, j*h.blk, h.blk)
			fill := color.Color(color.RGBA{0xee, 0xee, 0xee, 0xff})
			if !math.IsNaN(v) {
				fill = heatRGB(heatShare(h.m, v, h.lo, h.hi))
			}
			c.FillPolygon(fill, square(i, j))
		}
	}
	red := draw.LineStyle{Color: color.RGBA{0xff, 0x20, 0x20, 0xff}, Width: vg.Points(1.5)}
	outlined := map[[2]int]bool{}
	for _, s := range h.slow {
		k := [2]int{s.Src / h.blk, s.Dst / h.blk}
		if !outlined[k] {
			outlined[k] = true
			sq := square(k[0], k[1])
			c.StrokeLines(red, append(sq, sq[0]))
		}
	}
}

// heatRGB is heatColour as a colour.
func heatRGB(f float64) color.Color {
	var r, g, b uint8
	_, _ = fmt.Sscanf(heatColour(f), "#%02x%02x%02x", &r, &g, &b)
	return color.RGBA{r, g, b, 0xff}
}

// rankTicks label the squares' centres with their first rank, at most
// 16 labels; down counts the rows from the top.
type rankTicks struct {
	blk, p int
	down   bool
}

func (t rankTicks) Ticks(lo, hi float64) []plot.Tick {
	n := (t.p + t.blk - 1) / t.blk
	step := (n + 15) / 16
	var ticks []plot.Tick
	for i := 0; i < n; i += step {
		pos := float64(i) + 0.5
		if t.down {
			pos = float64(n-i) - 0.5
		}
		ticks = append(ticks, plot.Tick{Value: pos, Label: fmt.Sprint(i * t.blk)})
	}
	return ticks
}
