package report

import (
	"os"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/vgimg"
)

func guidelineTestPlot() GuidelinePlot {
	return GuidelinePlot{
		ID:     "p4-GL3-MPI_Gather",
		Title:  "GL3 (pattern) MPI_Gather <= MPI_Allgather(n), 4 processes",
		Labels: []string{"MPI_Gather", "Gather_as_Allgather"},
		Sizes:  []string{"1", "2", "4"},
		Values: [][][]float64{{{10, 11, 12}, {12, 13, 12.5}, {20, 21, 22}}, {{15, 16, 15.5}, {18, 19, 18.5}, {12, 13, 12.5}}},
		Marks:  []string{"", "", "***"},
	}
}

func TestGuidelineHTML(t *testing.T) {
	var b strings.Builder
	gl1 := GuidelinePlot{ID: "p4-GL1-MPI_Bcast", Title: "GL1", Labels: []string{"MPI_Bcast"}, Sizes: []string{"1", "2"},
		Values: [][][]float64{{{3, 3.1}, {2, 2.1}}}, Marks: []string{"", "*"}}
	if err := GuidelineHTML(&b, GuidelinePage{Text: "Table II <x>", Plots: []GuidelinePlot{guidelineTestPlot(), gl1}}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Count(page, "<svg") != 2 || !strings.Contains(page, `id="p4-GL3-MPI_Gather"`) || !strings.Contains(page, "Table II &lt;x&gt;") {
		t.Errorf("page: want 2 plots and the escaped tables:\n%.2000s", page)
	}
	// The shading of a violated size is the translucent red polygon.
	if !strings.Contains(page, "fill:#FF0000") || !strings.Contains(page, "***") {
		t.Errorf("page lacks the shading or the stars of the violated size")
	}
	bad := guidelineTestPlot()
	bad.Values = bad.Values[:1]
	if err := GuidelineHTML(&b, GuidelinePage{Plots: []GuidelinePlot{bad}}); err == nil {
		t.Errorf("values for one side of two: no error")
	}
}

// With MPIBENCH_GUIDELINE_PNG set, the test plot is written there to look at.
func TestGuidelinePNG(t *testing.T) {
	path := os.Getenv("MPIBENCH_GUIDELINE_PNG")
	if path == "" {
		t.Skip("MPIBENCH_GUIDELINE_PNG not set")
	}
	p, err := guidelineTestPlot().Plot()
	if err != nil {
		t.Fatal(err)
	}
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotWidth, plotHeight), vgimg.UseDPI(100))}
	if err := drawPlot(p, c); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(path, c); err != nil {
		t.Fatal(err)
	}
}
