package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	gohtml "html"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/plotutil"

	"mpibench/analysis/result"
)

// reportChromium is the headless browser of the test machine, "" when
// there is none (Debian's package is chromium).
func reportChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// reportBrowse runs the browser headless on page with the given flags.
func reportBrowse(t *testing.T, browser, page string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}, flags...)
	cmd := exec.CommandContext(ctx, browser, append(args, "file://"+page)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, errb.String())
	}
	return out.Bytes()
}

// A report of one input, opened in headless Chromium: the DOM it parsed
// holds every plot with its lines, and the screenshot shows the lines in
// the series' colour, which only a rendered SVG puts there (the page's
// own CSS has no such colour).
func TestReportChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts chromium, seconds per page")
	}
	browser := reportChromium()
	if browser == "" {
		t.Skip("no chromium on PATH (Debian: apt-get install chromium); the browser check is skipped")
	}
	in := Input{Name: "a.jsonl", Records: reportIMB("hostA", 1)}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	if err := HTML(&b, []Input{in}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	dom := string(reportBrowse(t, browser, page, "--dump-dom"))
	if n := strings.Count(dom, "<svg"); n != 2 {
		t.Errorf("the browser's DOM holds %d <svg>, want 2", n)
	}
	if n := strings.Count(dom, "<path"); n < 10 {
		t.Errorf("the browser's DOM holds %d <path>, want the axes, grid and lines", n)
	}
	shot := filepath.Join(dir, "shot.png")
	reportBrowse(t, browser, page, "--screenshot="+shot, "--window-size=1200,2400")
	n, err := reportCountColor(shot, plotutil.Color(0))
	if err != nil {
		t.Fatal(err)
	}
	if n < 200 {
		t.Errorf("the screenshot has %d pixels of the first series' colour, want a drawn line (≥ 200)", n)
	}
	t.Logf("%d pixels of the series colour", n)
}

// reportCountColor counts the pixels of a PNG within a small distance of c.
func reportCountColor(path string, c interface{ RGBA() (r, g, b, a uint32) }) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return 0, err
	}
	cr, cg, cb, _ := c.RGBA()
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if reportNear(img, x, y, cr>>8, cg>>8, cb>>8) {
				n++
			}
		}
	}
	return n, nil
}

func reportNear(img image.Image, x, y int, r, g, b uint32) bool {
	pr, pg, pb, _ := img.At(x, y).RGBA()
	d := func(a, b uint32) int { return int(a>>8) - int(b) }
	dr, dg, db := d(pr, r), d(pg, g), d(pb, b)
	return dr*dr+dg*dg+db*db < 40*40
}

// layoutProbe is the script the layout test adds to its copy of the page
// (the page itself runs none): it measures what a reader sees and writes
// the facts as JSON into a <pre id="probe"> that --dump-dom prints.
const layoutProbe = `<script>
(function () {
  var f = {width: window.innerWidth, scrollWidth: document.documentElement.scrollWidth, panels: [], minText: 1e9};
  document.querySelectorAll("figure.plot .panel").forEach(function (p) {
    var s = p.querySelector("svg"), r = s.getBoundingClientRect(), scale = r.width / s.viewBox.baseVal.width;
    f.panels.push({kind: p.className, fig: p.closest("figure").id, left: r.left, top: r.top, width: r.width, height: r.height});
    s.querySelectorAll("text").forEach(function (t) {
      f.minText = Math.min(f.minText, parseFloat(getComputedStyle(t).fontSize) * scale);
    });
  });
  f.legendFont = parseFloat(getComputedStyle(document.querySelector("figure.plot .legend")).fontSize);
  f.summaryTop = document.getElementById("summary").getBoundingClientRect().top;
  var wide = document.querySelector("div.wide");
  f.summaryClipped = wide.scrollWidth > wide.clientWidth;
  f.firstPlotTop = document.querySelector("figure.plot").getBoundingClientRect().top;
  f.provenanceOpen = document.querySelector("details.provenance").open;
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(f);
  document.body.appendChild(pre);
})();
</script>`

// layoutFacts are the probe's measurements, in CSS px.
type layoutFacts struct {
	Width, ScrollWidth int
	Panels             []struct {
		Kind, Fig                string
		Left, Top, Width, Height float64
	}
	MinText, LegendFont      float64
	SummaryTop, FirstPlotTop float64
	ProvenanceOpen           bool
	SummaryClipped           bool
}

// layoutMeasure renders page in a window width px wide and returns the
// probe's facts.
func layoutMeasure(t *testing.T, browser, page string, width int) layoutFacts {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(t.TempDir(), "probe.html")
	html := strings.Replace(string(b), "</body>", layoutProbe+"</body>", 1)
	if err := os.WriteFile(probe, []byte(html), 0o666); err != nil {
		t.Fatal(err)
	}
	dom := string(reportBrowse(t, browser, probe, "--dump-dom", fmt.Sprintf("--window-size=%d,900", width)))
	m := regexp.MustCompile(`<pre id="probe">(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe wrote nothing at %d px (no JavaScript?)", width)
	}
	var f layoutFacts
	if err := json.Unmarshal([]byte(gohtml.UnescapeString(m[1])), &f); err != nil {
		t.Fatalf("probe: %v: %s", err, m[1])
	}
	return f
}

// TestReportLayout opens a page of two inputs with throughputs in
// headless Chromium at a laptop's 1400 px and checks what a reader sees,
// not pixels: no horizontal scroll; every plot, the Changes section's
// too, 560-700 px wide and at least 360 px high, the time and bandwidth
// plots side by side; text in
// the plots and the legend at least 12 and 13 px; the summary of the
// largest differences on the first screen, above the plots, with the
// provenance folded, the summary table whole. At 1000 px the panels
// wrap instead of scrolling.
func TestReportLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts chromium, seconds per page")
	}
	browser := reportChromium()
	if browser == "" {
		t.Skip("no chromium on PATH (Debian: apt-get install chromium; scripts/setup.sh --test installs it); the layout check is skipped")
	}
	page := filepath.Join(t.TempDir(), "report.html")
	var b bytes.Buffer
	inputs := []Input{{Name: "a.jsonl", Records: layoutRecords("hostA", 1)}, {Name: "b.jsonl", Records: layoutRecords("hostB", 2)}}
	if err := HTML(&b, inputs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	f := layoutMeasure(t, browser, page, 1400)
	t.Logf("1400 px: %+v", f)
	if f.ScrollWidth > f.Width {
		t.Errorf("the page scrolls sideways at %d px: %d px wide", f.Width, f.ScrollWidth)
	}
	// The Changes section's plots of IMB-MPI1 and SKaMPI; PingPong:
	// time, bandwidth and ratio; Barrier and the SKaMPI measurement
	// (whose long title must not widen the summary): time and ratio.
	if len(f.Panels) != 9 || f.Panels[0].Kind != "panel changes" || f.Panels[1].Kind != "panel changes" {
		t.Fatalf("%d panels, want 9, the two of the Changes section first", len(f.Panels))
	}
	for _, p := range f.Panels {
		if p.Width < 560 || p.Width > 700 || p.Height < 360 {
			t.Errorf("%s %s: %.0f × %.0f px, want 560-700 wide and 360 high", p.Fig, p.Kind, p.Width, p.Height)
		}
	}
	tm, bw := f.Panels[2], f.Panels[3]
	if tm.Kind != "panel main" || bw.Kind != "panel bandwidth" || bw.Top != tm.Top || bw.Left < tm.Left+tm.Width {
		t.Errorf("time and bandwidth not side by side: %+v %+v", tm, bw)
	}
	if f.MinText < 12 || f.LegendFont < 13 {
		t.Errorf("smallest text in a plot %.1f px (want ≥ 12), legend %.1f px (want ≥ 13)", f.MinText, f.LegendFont)
	}
	if f.ProvenanceOpen || f.SummaryTop > 900 || f.SummaryTop > f.FirstPlotTop {
		t.Errorf("summary at %.0f px, first plot at %.0f, provenance open %v: want the summary on the first screen, provenance folded",
			f.SummaryTop, f.FirstPlotTop, f.ProvenanceOpen)
	}
	if f.SummaryClipped {
		t.Error("the summary table scrolls sideways at 1400 px")
	}
	// Narrower, the summary table may scroll in its box, the page not.
	if g := layoutMeasure(t, browser, page, 1000); g.ScrollWidth > g.Width {
		t.Errorf("the page scrolls sideways at %d px: %d px wide", g.Width, g.ScrollWidth)
	}
}

// layoutRecords are reportIMB's with IMB's throughput, bytes / t_max,
// and a SKaMPI ping-pong, scaled too.
func layoutRecords(host string, scale float64) []result.Record {
	recs := reportIMB(host, scale)
	for i := range recs {
		recs[i].MBps = float64(recs[i].Bytes) / recs[i].TMax
	}
	for _, r := range reportSKaMPI(host, "Pingpong_Send_Recv") {
		r.Stats.Trimmed *= scale
		recs = append(recs, r)
	}
	return recs
}
