package report

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"mpibench/internal/safefile"
	"mpibench/internal/textout"
)

// The size of the PNG and PDF plots: half an A4 page wide.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 10 * vg.Centimeter
)

// The size of a panel of the HTML page, drawn at 1:1 on screen (a point
// is 4/3 CSS px): 600 × 400 px, two side by side on a laptop's 1400 px,
// so that the 11 pt tick labels are 14.7 px there.
const (
	panelWidth  = vg.Length(450)
	panelHeight = vg.Length(300)
)

// The font sizes of every plot, in points.
const (
	fontTitle  = 13
	fontLabel  = 12
	fontTick   = 11
	fontLegend = 10
)

// Plot draws the measurement: log axes where the figures span decades
// (time and bandwidth always, the abscissa as Measurement.LogX says),
// one line per series, error bars of the standard error and the band of
// the allowed standard error where the records have them.
func (m *Measurement) Plot() (*plot.Plot, error) {
	return m.plot(plotWrap(m.Title, 60), true)
}

// plot draws the measurement with the given title, with its legend or
// without (the page writes the legend in HTML, once for a figure's
// panels).
func (m *Measurement) plot(title string, legend bool) (*plot.Plot, error) {
	p := newPanel(title, m.XLabel, m.YLabel)
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = fontLegend
	if m.Ref != 0 {
		if err := plotRef(p, m.Ref); err != nil {
			return nil, err
		}
	}
	zero := plotZero(m)
	logY := !m.LinearY && plotPositiveY(m)
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	if m.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{zero: zero}
	}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	for _, s := range m.Series {
		if err := plotSeries(p, s, m.LogX, logY, zero); err != nil {
			return nil, err
		}
	}
	plotPad(&p.X, m.LogX)
	plotPad(&p.Y, logY)
	if !legend {
		p.Legend = plot.NewLegend()
	}
	return p, nil
}

// newPanel is an empty plot of the page: its title, axis labels, the
// page's font sizes and a grid.
func newPanel(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Title.TextStyle.Font.Size = fontTitle
	p.X.Label.TextStyle.Font.Size, p.Y.Label.TextStyle.Font.Size = fontLabel, fontLabel
	p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = fontTick, fontTick
	p.Add(plotter.NewGrid())
	return p
}

// plotRef draws a grey horizontal line at y across the plot (the ratio
// 1 of a ratio plot), which also keeps y inside the axis.
func plotRef(p *plot.Plot, y float64) error {
	f := plotter.NewFunction(func(float64) float64 { return y })
	f.Color = color.Gray{0x80}
	f.Width = vg.Points(1)
	p.Add(f)
	p.Y.Min, p.Y.Max = math.Min(p.Y.Min, y), math.Max(p.Y.Max, y)
	return nil
}

// plotWrap breaks a title at its commas into lines of about width
// characters: gonum/plot clips a title wider than the plot.
func plotWrap(title string, width int) string {
	var lines []string
	line := ""
	for _, part := range strings.SplitAfter(title, ", ") {
		if line != "" && len(line)+len(part) > width {
			lines = append(lines, strings.TrimSpace(line))
			line = ""
		}
		line += part
	}
	return strings.Join(append(lines, strings.TrimSpace(line)), "\n")
}

// plotZero is where a zero abscissa is drawn on a log axis: half the
// smallest positive one, labelled "0" (IMB starts at 0 bytes); 1 when
// there is none.
func plotZero(m *Measurement) float64 {
	small := math.Inf(1)
	for _, s := range m.Series {
		for _, p := range s.Points {
			if p.X > 0 {
				small = math.Min(small, p.X)
			}
		}
	}
	if math.IsInf(small, 1) {
		return 1 // only 0 B (a ratio panel of inputs that share no other length): any positive place
	}
	return small / 2
}

// plotPositiveY is whether every plotted figure is positive, which a log
// axis needs; an all-zero or negative figure keeps the axis linear.
func plotPositiveY(m *Measurement) bool {
	any := false
	for _, s := range m.Series {
		for _, p := range s.Points {
			if !(p.Y > 0) {
				return false
			}
			any = true
		}
	}
	return any
}

// plotPad widens an axis that holds a single value, which gonum/plot
// cannot scale.
func plotPad(a *plot.Axis, log bool) {
	if a.Min < a.Max {
		return
	}
	switch {
	case math.IsInf(a.Min, 0) || math.IsNaN(a.Min) || math.IsInf(a.Max, 0) || math.IsNaN(a.Max):
		// Nothing was plotted: an empty frame.
		a.Min, a.Max = 1, 10
	case log:
		a.Min, a.Max = a.Min/2, a.Max*2
	case a.Min == 0:
		a.Min, a.Max = -1, 1
	default:
		d := math.Abs(a.Min) / 2
		a.Min, a.Max = a.Min-d, a.Max+d
	}
}

func plotSeries(p *plot.Plot, s *Series, logX, logY bool, zero float64) error {
	xys := make(plotter.XYs, 0, len(s.Points))
	errs := make(plotter.YErrors, 0, len(s.Points))
	var band, upper plotter.XYs
	spread := plotSpread(s)
	for _, pt := range s.Points {
		x := pt.X
		if logX && x <= 0 {
			x = zero
		}
		if math.IsNaN(pt.Y) || math.IsInf(pt.Y, 0) {
			continue
		}
		xys = append(xys, plotter.XY{X: x, Y: pt.Y})
		errs = append(errs, plotErr(pt.Y, pt.Err, logY))
		switch {
		case spread:
			// Repeated measurements: shaded from the smallest to the
			// largest, on a log axis no lower than a tenth of the median.
			lo := pt.Lo
			if logY && !(lo > 0) {
				lo = pt.Y / 10
			}
			band = append(band, plotter.XY{X: x, Y: lo})
			upper = append(upper, plotter.XY{X: x, Y: pt.Hi})
		case pt.Band > 0:
			lo := plotErr(pt.Y, pt.Band, logY)
			band = append(band, plotter.XY{X: x, Y: pt.Y - lo.Low})
			upper = append(upper, plotter.XY{X: x, Y: pt.Y + lo.High})
		}
	}
	if len(xys) == 0 {
		return nil
	}
	col := plotutil.Color(s.Input)
	if err := plotBand(p, band, upper, col); err != nil {
		return err
	}
	if err := plotLine(p, s, xys, col); err != nil {
		return err
	}
	if !plotHasErr(errs) {
		return nil
	}
	bars, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{xys, errs})
	if err != nil {
		return err
	}
	bars.Color = col
	p.Add(bars)
	return nil
}

// plotBand shades the band from the lower points to the upper ones in
// a faded col, behind the line; no points, no band.
func plotBand(p *plot.Plot, lower, upper plotter.XYs, col color.Color) error {
	if len(lower) == 0 {
		return nil
	}
	band := slices.Clone(lower)
	for i := len(upper) - 1; i >= 0; i-- {
		band = append(band, upper[i])
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return err
	}
	poly.Color = plotFade(col)
	poly.LineStyle.Width = 0
	p.Add(poly)
	return nil
}

// plotLine draws the series' line and markers in its input's colour,
// dashed for a secondary figure, and names it in the legend.
func plotLine(p *plot.Plot, s *Series, xys plotter.XYs, col color.Color) error {
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	line.Color, points.Color = col, col
	line.Width = vg.Points(1.5)
	line.Dashes = plotutil.Dashes(s.Kind)
	points.Shape = plotutil.Shape(s.Input)
	p.Add(line, points)
	p.Legend.Add(s.Label, line, points)
	return nil
}

// plotSpread is whether a point of the series is a median of repeated
// measurements.
func plotSpread(s *Series) bool {
	for _, p := range s.Points {
		if p.N > 1 {
			return true
		}
	}
	return false
}

// plotErr is a symmetric error, cut on a log axis so that the low end
// stays positive.
func plotErr(y, e float64, logY bool) struct{ Low, High float64 } {
	low := e
	if logY && low > 0.9*y {
		low = 0.9 * y
	}
	return struct{ Low, High float64 }{low, e}
}

func plotHasErr(errs plotter.YErrors) bool {
	for _, e := range errs {
		if e.High > 0 {
			return true
		}
	}
	return false
}

// plotFade is a translucent version of c, for bands behind the lines.
func plotFade(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0x40}
}

// logTicks labels the powers of ten with short names and marks the
// multiples between them; a range inside one decade gets every tick
// labelled, and zero, where it is drawn, is labelled "0".
type logTicks struct {
	zero float64
}

func (t logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && max >= min) || math.IsInf(max, 0) {
		return nil
	}
	var ticks []plot.Tick
	labelled := 0
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		v := math.Pow(10, e)
		for k := 1.0; k < 10; k++ {
			w := k * v
			if w < min*(1-1e-9) || w > max*(1+1e-9) {
				continue
			}
			tick := plot.Tick{Value: w}
			if k == 1 {
				tick.Label = tickLabel(w)
				labelled++
			}
			ticks = append(ticks, tick)
		}
	}
	if labelled < 2 {
		// Less than two decades: 1, 2 and 5 of each labelled, or every
		// tick where that is fewer than three (labels of every tick of
		// a wider range overlap).
		labelled = logLabel(ticks, func(k float64) bool { return k == 1 || k == 2 || k == 5 })
		if labelled < 3 {
			logLabel(ticks, func(float64) bool { return true })
		}
	}
	if t.zero > 0 && t.zero >= min {
		// A tick at the place of zero (2 where the lengths are 0, 4, 8)
		// would write its label over "0".
		ticks = slices.DeleteFunc(ticks, func(tk plot.Tick) bool { return math.Abs(tk.Value-t.zero) < 1e-9*t.zero })
		ticks = append(ticks, plot.Tick{Value: t.zero, Label: "0"})
	}
	return ticks
}

// logLabel labels the ticks whose leading digit k passes, and returns
// how many it labelled.
func logLabel(ticks []plot.Tick, pass func(k float64) bool) int {
	n := 0
	for i := range ticks {
		v := ticks[i].Value
		k := math.Round(v / math.Pow(10, math.Floor(math.Log10(v)+1e-9)))
		ticks[i].Label = ""
		if pass(k) {
			ticks[i].Label = tickLabel(v)
			n++
		}
	}
	return n
}

// tickLabel writes 1000 as 1k and 10^6 as 1M: lengths and rates read
// better so than as 1e+06; below 1000 a plain number (0.00001, not
// 1e-05).
func tickLabel(v float64) string {
	for _, u := range []struct {
		f float64
		s string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= u.f {
			return textout.Number(v/u.f) + u.s
		}
	}
	return textout.Number(v)
}

// plainTicks are gonum/plot's ticks of a linear axis labelled as tickLabel
// writes them (gonum/plot writes 1e+06).
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = tickLabel(t.Value)
			if t.Value < 0 {
				ticks[i].Label = "-" + tickLabel(-t.Value)
			}
		}
	}
	return ticks
}

// drawPlot draws p on c, turning a panic of gonum/plot (it panics on
// values a log axis cannot show) into an error.
func drawPlot(p *plot.Plot, c vg.CanvasSizer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing %q: %v", p.Title.Text, r)
		}
	}()
	p.Draw(draw.New(c))
	return nil
}

// SVG renders the measurement as an <svg> element to inline in HTML:
// the XML prolog vgsvg writes is cut off.
func (m *Measurement) SVG() ([]byte, error) {
	p, err := m.Plot()
	if err != nil {
		return nil, err
	}
	return inlineSVG(p)
}

// panelSVG renders the measurement as a panel of the page: its own
// title, no legend, at screen size.
func (m *Measurement) panelSVG(title string) ([]byte, error) {
	p, err := m.plot(title, false)
	if err != nil {
		return nil, err
	}
	return sizedSVG(p, panelWidth, panelHeight)
}

// inlineSVG renders a plot as an <svg> element, without vgsvg's XML prolog.
func inlineSVG(p *plot.Plot) ([]byte, error) {
	return sizedSVG(p, plotWidth, plotHeight)
}

func sizedSVG(p *plot.Plot, width, height vg.Length) ([]byte, error) {
	c := vgsvg.New(width, height)
	if err := drawPlot(p, c); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	out := b.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i > 0 {
		out = out[i:]
	}
	return out, nil
}

// WritePNG writes one PNG per measurement into dir, named after its ID,
// and returns the paths. dir is created if missing; one that is a
// symbolic link is refused, as safefile refuses links for files: in a
// shared directory such as /tmp another user could plant it to have the
// plots written elsewhere.
func WritePNG(dir string, ms []Drawing) ([]string, error) {
	if len(ms) == 0 {
		// As WritePDF: no directory of nothing with exit 0.
		return nil, fmt.Errorf("no measurements to plot")
	}
	if err := plotDir(dir); err != nil {
		return nil, err
	}
	var paths []string
	for _, m := range ms {
		p, err := m.Plot()
		if err != nil {
			return paths, err
		}
		c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotWidth, plotHeight), vgimg.UseDPI(150))}
		if err := drawPlot(p, c); err != nil {
			return paths, err
		}
		path := filepath.Join(dir, m.Name()+".png")
		if err := writeFile(path, c); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// plotDir makes sure dir is a directory and not a link to one.
func plotDir(dir string) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return err
		}
		st, err = os.Lstat(dir)
	}
	switch {
	case err != nil:
		return err
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link; mpibench does not write through links", dir)
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// WritePDF writes every measurement as one page of a PDF.
func WritePDF(w io.Writer, ms []Drawing) error {
	if len(ms) == 0 {
		return fmt.Errorf("no measurements to plot")
	}
	c := vgpdf.New(plotWidth, plotHeight)
	for i, m := range ms {
		p, err := m.Plot()
		if err != nil {
			return err
		}
		if i > 0 {
			c.NextPage()
		}
		if err := drawPlot(p, c); err != nil {
			return err
		}
	}
	_, err := c.WriteTo(w)
	return err
}

func writeFile(path string, w io.WriterTo) error {
	f, err := safefile.Create(path)
	if err != nil {
		return err
	}
	if _, err := w.WriteTo(f); err != nil {
		_ = f.Close() // the error told is the write's
		return err
	}
	return f.Close()
}
