package report

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// Two inputs whose PingPong differs by a planted factor: the ratio panel
// holds the quotients, the summary the largest difference and the
// median, both computed here by hand.
func TestReportDifferences(t *testing.T) {
	// t = 1 + bytes/1000·scale at 0, 1, 10, 100, 1000 bytes; Barrier 4 µs on both.
	inputs := []Input{{Name: "a.jsonl", Records: reportIMB("hostA", 1)}, {Name: "b.jsonl", Records: reportIMB("hostB", 3)}}
	ms := Group(inputs)
	r := ms[0].ratio()
	want := []float64{1, 1.003 / 1.001, 1.03 / 1.01, 1.3 / 1.1, 4.0 / 2}
	if r == nil || len(r.Series) != 1 || len(r.Series[0].Points) != len(want) {
		t.Fatalf("ratio panel %+v", r)
	}
	for i, p := range r.Series[0].Points {
		if math.Abs(p.Y-want[i]) > 1e-12 {
			t.Errorf("ratio at %g B: %g, want %g", p.X, p.Y, want[i])
		}
	}
	if !r.LinearY {
		t.Error("ratios from 1 to 2 on a log axis, want linear")
	}
	if r := Group([]Input{inputs[0], {Name: "c", Records: reportIMB("hostC", 30)}})[0].ratio(); r.LinearY {
		t.Error("ratios from 1 to 31/2 on a linear axis, want log")
	}
	labels := []string{InputLabel(inputs[0]), InputLabel(inputs[1])}
	ds := differences(ms, labels, nil)
	// Barrier takes 4 µs on both: no difference, no line.
	if len(ds) != 1 {
		t.Fatalf("%d differences, want PingPong's only", len(ds))
	}
	// Median of the five quotients: 1.03/1.01 = +1.98 %.
	pp := htmlDiff{ID: ms[0].ID, Title: "PingPong, 2 processes", Label: labels[1], Base: labels[0], At: "1000 B",
		Old: "2 µs", New: "4 µs", Change: "+100.0 %", Verdict: "slower", Median: "+2.0 % (5 points)", Significant: "–"}
	got := ds[0]
	if got.size == 0 || got.input != 1 || got.base != 0 || got.x != 1000 {
		t.Errorf("largest difference of inputs %d and %d at %g, size %g", got.input, got.base, got.x, got.size)
	}
	got.size, got.x, got.input, got.base = 0, 0, 0, 0
	if got != pp {
		t.Errorf("largest difference\n got %+v\nwant %+v", got, pp)
	}
	// The records the difference is between, for compare's verdict.
	c := collect(inputs)
	if d := differences(c.Measurements(), labels, c.g.cases); d[0].caseID != result.Identity(&inputs[1].Records[4]) {
		t.Errorf("case of the largest difference %q", d[0].caseID)
	}
	// One input: no summary, no ratio panel.
	if got := differences(Group(inputs[:1]), labels[:1], nil); len(got) != 0 || Group(inputs[:1])[0].ratio() != nil {
		t.Errorf("one input: differences %+v", got)
	}
}

// The summary of two inputs is on the page, before the folded provenance.
func TestReportSummaryPage(t *testing.T) {
	inputs := []Input{{Name: "a.jsonl", Records: reportIMB("hostA", 1)}, {Name: "b.jsonl", Records: reportIMB("hostB", 3)}}
	var b bytes.Buffer
	if err := HTML(&b, inputs); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`<h2 id="summary">`, "<td class=\"num\">&#43;100.0 %</td>" /* html/template escapes + */, `<td class="slower">slower</td>`,
		`<details class="provenance" id="inputs">`} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("page lacks %q", s)
		}
	}
	if i, j := strings.Index(b.String(), `id="summary"`), strings.Index(b.String(), `<details`); i > j {
		t.Error("the provenance comes before the summary")
	}
}

// A bandwidth measurement (b_eff) that got larger is faster.
func TestReportDifferenceBandwidth(t *testing.T) {
	a, b := reportBeff("hostA"), reportBeff("hostB")
	for i := range b {
		b[i].BMBps *= 2
	}
	ds := differences(Group([]Input{{Name: "a", Records: a}, {Name: "b", Records: b}}), []string{"a", "b"}, nil)
	if len(ds) == 0 || ds[0].Verdict != "faster" || ds[0].Change != "+100.0 %" || !strings.HasSuffix(ds[0].New, " MB/s") {
		t.Errorf("b_eff doubled: %+v", ds)
	}
}

// A run's options read as name=value, in name order.
func TestReportContextOptions(t *testing.T) {
	c := reportContext("h")
	c.Options = map[string]string{"msglog": "3:10", "iter": "50,40,100"}
	for _, row := range htmlContext(c) {
		if row[0] == "options" && row[1] != "iter=50,40,100 msglog=3:10" {
			t.Errorf("options %q", row[1])
		}
	}
}

// The summary's significance is compare's rank-sum test: five launches a
// side wholly apart give the smallest p-value five and five can,
// 2/C(10,5) = 0.007937; interleaved launches are no change; one launch a
// side is too few to tell.
func TestReportVerdicts(t *testing.T) {
	launches := func(name string, ts ...float64) Input {
		in := Input{Name: name}
		for i, v := range ts {
			in.Records = append(in.Records, scalePingPong(fmt.Sprintf("run%d", i), 1024, v))
		}
		return in
	}
	old := launches("old", 2.0, 2.1, 1.9, 2.05, 1.95)
	for _, c := range []struct {
		in   Input
		want string
	}{
		{launches("slow", 4.0, 4.2, 3.9, 4.1, 3.8), "yes, p = 0.007937 (5 and 5 launches)"},
		{launches("noise", 2.02, 1.92, 2.08, 1.97, 2.03), "no, p = "},
	} {
		var b bytes.Buffer
		if err := HTML(&b, []Input{old, c.in}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "<td>"+c.want) {
			t.Errorf("%s: the page lacks %q", c.in.Name, c.want)
		}
	}
	var b bytes.Buffer
	if err := HTML(&b, []Input{launches("a", 2), launches("b", 4)}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "<td>too few to tell (1 and 1 launches; the test needs 4 launches a side)</td>") {
		t.Error("one launch a side: no 'too few to tell'")
	}
}

// Two inputs that agree, or share nothing, say so instead of a summary.
func TestReportNoDifferences(t *testing.T) {
	same := Input{Name: "b.jsonl", Records: reportIMB("hostA", 1)}
	other := Input{Name: "c.jsonl", Records: reportBeff("hostC")}
	for _, c := range []struct {
		in   Input
		want string
	}{{same, "The inputs agree at every point of the 2 plots they share."}, {other, "The inputs share no plot: nothing to compare."}} {
		var b bytes.Buffer
		if err := HTML(&b, []Input{{Name: "a.jsonl", Records: reportIMB("hostA", 1)}, c.in}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) || strings.Contains(b.String(), `id="summary"`) {
			t.Errorf("%s: the page does not say %q, or has a summary", c.in.Name, c.want)
		}
	}
}

// The bandwidth beside a plot is the one its bandwidth panel draws: the
// record's throughput (Sendrecv counts both directions; IMB 3.0's MB is
// 2^20 bytes, the page's 10^6), else bytes per time.
func TestReportFigureBandwidth(t *testing.T) {
	r := scalePingPong("r", 1<<20, 1000)
	r.Benchmark = "Sendrecv"
	r.MBps = 2 * float64(r.Bytes) / r.TMax / 1.048576 // IMB 3.0: MB = 2^20
	r.Context.IMB = "3.0"
	f := Group([]Input{{Name: "a", Records: []result.Record{r}}})[0].Figures()[0]
	if math.Abs(f.First.MBps-2*1048.576) > 1e-9 {
		t.Errorf("Sendrecv at 1 MiB in 1000 µs: %g MB/s, want 2097.152 (both directions, MB = 10^6)", f.First.MBps)
	}
}
