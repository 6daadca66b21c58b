package plots

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/plotutil"
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
