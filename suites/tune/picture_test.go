package tune

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"mpibench/internal/golden"
)

const testAlpha = 0.05

func okAlg(id int, name string, median float64) Measured {
	return Measured{Alg: Alg{id, name}, Status: "ok", Samples: []float64{median * 0.98, median, median * 1.03},
		Median: median}
}

func failAlg(id int, name, why string) Measured {
	return Measured{Alg: Alg{id, name}, Status: "failed", Error: why}
}

// verdict decides as tune does: the fastest of the algorithms that ran,
// chosen when p < α, the default (algs[0]) kept otherwise.
func verdict(coll string, np, bytes int, p float64, algs ...Measured) Choice {
	c := Choice{Library: "openmpi", Coll: coll, NP: np, Bytes: bytes, Algs: algs, P: p, Alpha: testAlpha,
		Winner: algs[0].Alg, Chosen: Default}
	best := algs[0].Median
	for _, m := range algs[1:] {
		if m.Status == "ok" && m.Median < best {
			c.Winner, best = m.Alg, m.Median
		}
	}
	switch {
	case c.Winner.IsDefault():
		c.Why = "the default was the fastest"
	case p >= testAlpha:
		c.Why = "not significant: p ≥ α"
	default:
		c.Chosen, c.Gain = c.Winner, 100*(algs[0].Median-best)/algs[0].Median
	}
	return c
}

func proof(coll string, np, bytes int, chosen Alg, change, p float64) Proof {
	return Proof{Library: "openmpi", Coll: coll, NP: np, Bytes: bytes, Chosen: chosen,
		Default: Side{Samples: []float64{99, 100, 101}, Median: 100},
		Tuned:   Side{Samples: []float64{100 + change}, Median: 100 + change},
		Change:  change, P: p, Alpha: testAlpha, Significant: p < testAlpha}
}

var (
	def     = Alg{0, "default"}
	recdbl  = Alg{3, "recursive_doubling"}
	ring    = Alg{4, "ring"}
	segring = Alg{5, "segmented_ring"}
	binom   = Alg{6, "binomial"}
	pipe    = Alg{3, "pipeline"}
	knomial = Alg{9, "knomial"}
)

// pictureInput is a small tune run: Bcast before Allreduce in the files
// (the picture orders them as Colls does), 2 process counts × 3 lengths
// each, kept defaults (fastest, and a faster one not significant), failed
// algorithms, proofs significant faster, significant slower and not
// significant, and points without a proof.
func pictureInput() ([]Choice, []Proof) {
	a, b := "Allreduce", "Bcast"
	choices := []Choice{
		verdict(b, 4, 8, 0.6, okAlg(0, "default", 3), failAlg(9, "knomial", "exit status 1"), okAlg(6, "binomial", 3.1)),
		verdict(b, 4, 1024, 0.4, okAlg(0, "default", 5), okAlg(6, "binomial", 5.2)),
		verdict(b, 4, 1<<20, 0.001, okAlg(0, "default", 400), okAlg(3, "pipeline", 350)),
		verdict(b, 16, 8, 0.003, okAlg(0, "default", 9), okAlg(6, "binomial", 7.5)),
		verdict(b, 16, 1024, 0.5, okAlg(0, "default", 12), okAlg(6, "binomial", 13)),
		verdict(b, 16, 1<<20, 0.002, okAlg(0, "default", 900), okAlg(3, "pipeline", 700)),
		verdict(a, 4, 8, 0.7, okAlg(0, "default", 4), okAlg(3, "recursive_doubling", 4.2), okAlg(4, "ring", 6)),
		verdict(a, 4, 1024, 0.002, okAlg(0, "default", 10), okAlg(3, "recursive_doubling", 7.66), okAlg(4, "ring", 11)),
		verdict(a, 4, 1<<20, 0.001, okAlg(0, "default", 500), okAlg(3, "recursive_doubling", 620), okAlg(4, "ring", 350)),
		verdict(a, 16, 8, 0.2, okAlg(0, "default", 8), okAlg(3, "recursive_doubling", 7.6), okAlg(4, "ring", 12)),
		verdict(a, 16, 1024, 0.01, okAlg(0, "default", 20), okAlg(3, "recursive_doubling", 15), okAlg(4, "ring", 25)),
		verdict(a, 16, 1<<20, 0.004, okAlg(0, "default", 2000), okAlg(3, "recursive_doubling", 2600), okAlg(4, "ring", 1500),
			failAlg(5, "segmented_ring", "signal: segmentation fault")),
	}
	proofs := []Proof{
		proof(b, 4, 1<<20, pipe, -12.04, 0.0008),
		proof(b, 16, 8, binom, -1.5, 0.31),
		proof(b, 16, 1<<20, pipe, -21.7, 0.0001),
		proof(a, 4, 1024, recdbl, -21.66, 0.0012),
		proof(a, 4, 1<<20, ring, -28.2, 0.0004),
		proof(a, 16, 1024, recdbl, -3, 0.31),
		proof(a, 16, 1<<20, ring, 4.1, 0.02),
	}
	return choices, proofs
}

func TestWriteTextGolden(t *testing.T) {
	choices, proofs := pictureInput()
	var b strings.Builder
	if err := WriteText(&b, choices, proofs); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/picture-text.golden", b.String())
}

func TestWriteHTMLGolden(t *testing.T) {
	choices, proofs := pictureInput()
	var b strings.Builder
	if err := WriteHTML(&b, choices, proofs); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/picture.html.golden", b.String())
}

// The records' order in the files does not change a byte of either
// picture: the panels, rows, columns and legends are sorted.
func TestPictureOrderFree(t *testing.T) {
	choices, proofs := pictureInput()
	html1, text1 := renderBoth(t, choices, proofs)
	slices.Reverse(choices)
	slices.Reverse(proofs)
	html2, text2 := renderBoth(t, choices, proofs)
	if html1 != html2 || text1 != text2 {
		t.Error("the pictures change with the order of the records")
	}
}

func renderBoth(t *testing.T, choices []Choice, proofs []Proof) (string, string) {
	t.Helper()
	var h, x strings.Builder
	if err := WriteHTML(&h, choices, proofs); err != nil {
		t.Fatal(err)
	}
	if err := WriteText(&x, choices, proofs); err != nil {
		t.Fatal(err)
	}
	return h.String(), x.String()
}

// A failed write reaches the caller of either renderer.
func TestPictureWriteError(t *testing.T) {
	choices, proofs := pictureInput()
	if err := WriteText(golden.Full{}, choices, proofs); !errors.Is(err, golden.ErrFull) {
		t.Errorf("WriteText: %v, want %v", err, golden.ErrFull)
	}
	if err := WriteHTML(golden.Full{}, choices, proofs); !errors.Is(err, golden.ErrFull) {
		t.Errorf("WriteHTML: %v, want %v", err, golden.ErrFull)
	}
}

// pictureBad is a name a hostile file may carry: markup, an attribute
// break-out, an ampersand and a terminal escape sequence.
const pictureBad = "<script>alert(1)</script>\"><img onerror=x>&\x1b[31m"

// Every string of the records is escaped on the page, in the SVG and
// outside it, and cleaned of control characters in both pictures.
func TestPictureEscapes(t *testing.T) {
	bad := Alg{7, pictureBad}
	c := verdict(pictureBad, 4, 8, 0.001, okAlg(0, "default", 10), okAlg(7, pictureBad, 5),
		failAlg(8, pictureBad, pictureBad))
	c.Library = pictureBad
	p := proof(pictureBad, 4, 8, bad, -50, 0.001)
	p.Library = pictureBad
	page, text := renderBoth(t, []Choice{c}, []Proof{p})
	for _, s := range []string{"<script", "<img", "\x1b"} {
		if strings.Contains(page, s) {
			t.Errorf("the page holds %q", s)
		}
	}
	const escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&#34;&gt;&lt;img onerror=x&gt;&amp;?[31m"
	svgStart, svgEnd := strings.Index(page, "<svg"), strings.Index(page, "</svg>")
	if svgStart < 0 || !strings.Contains(page[svgStart:svgEnd], escaped) {
		t.Errorf("the SVG lacks the escaped name %q", escaped)
	}
	if !strings.Contains(page[svgEnd:], escaped) {
		t.Errorf("the tables lack the escaped name %q", escaped)
	}
	if strings.Contains(text, "\x1b") || !strings.Contains(text, "<script>") {
		t.Errorf("the text is not the name cleaned:\n%s", text)
	}
}

func TestPictureEmpty(t *testing.T) {
	page, text := renderBoth(t, nil, nil)
	if !strings.Contains(page, "No choices and no proofs.") || text != "No choices and no proofs.\n" {
		t.Errorf("empty input:\n%s\n%s", page, text)
	}
}

// jsonLines writes records as tune does, one JSON object a line.
func jsonLines[T any](t *testing.T, recs []T) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// The readers give back what tune writes, blank lines skipped.
func TestReadRoundTrip(t *testing.T) {
	choices, proofs := pictureInput()
	gotC, err := ReadChoices(strings.NewReader(jsonLines(t, choices)+"\n  \n"), "choices.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	gotP, err := ReadProofs(strings.NewReader("\n"+jsonLines(t, proofs)), "proof.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotC, choices) || !reflect.DeepEqual(gotP, proofs) {
		t.Error("the records read back differ from those written")
	}
}

// A line that does not parse, or places nowhere, stops the read with the
// file's name and the line's number.
func TestReadRefusesBadLine(t *testing.T) {
	choices, proofs := pictureInput()
	good := strings.SplitAfter(jsonLines(t, choices[:2]), "\n")[:2]
	goodProof := strings.SplitAfter(jsonLines(t, proofs[:2]), "\n")[:2]
	for _, bad := range []struct{ name, line, want string }{
		{"truncated", `{"library":"openmpi","coll":"Bcast","np":4`, "unexpected EOF"},
		{"not JSON", "Bcast 4 8 default", "invalid character"},
		{"unknown field", `{"coll":"Bcast","np":4,"bytes":8,"colour":"red"}`, `unknown field "colour"`},
		{"text after", `{"coll":"Bcast","np":4,"bytes":8}}`, "text after the record"},
		{"wrong type", `{"coll":"Bcast","np":"4","bytes":8}`, "cannot unmarshal"},
		{"null", "null", "no collective"},
		{"no np", `{"coll":"Bcast","bytes":8}`, "np 0 is not a process count"},
		{"negative bytes", `{"coll":"Bcast","np":4,"bytes":-1}`, "bytes -1 is not a message length"},
	} {
		t.Run(bad.name, func(t *testing.T) {
			in := good[0] + "\n" + bad.line + "\n" + good[1] // the bad line is line 3
			_, err := ReadChoices(strings.NewReader(in), "run/choices.jsonl")
			if err == nil || !strings.HasPrefix(err.Error(), "run/choices.jsonl:3: ") || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("ReadChoices: %v, want run/choices.jsonl:3: ...%s...", err, bad.want)
			}
			in = goodProof[0] + goodProof[1] + bad.line // line 3, without its line end
			_, err = ReadProofs(strings.NewReader(in), "proof.jsonl")
			if err == nil || !strings.HasPrefix(err.Error(), "proof.jsonl:3: ") || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("ReadProofs: %v, want proof.jsonl:3: ...%s...", err, bad.want)
			}
		})
	}
}

// A line past maxLine is refused with the number it would have had.
func TestReadRefusesLongLine(t *testing.T) {
	in := `{"coll":"Bcast","np":4,"bytes":8}` + "\n" + strings.Repeat(" ", maxLine+1) + "\n"
	_, err := ReadChoices(strings.NewReader(in), "choices.jsonl")
	if err == nil || !strings.HasPrefix(err.Error(), "choices.jsonl:2: ") {
		t.Errorf("ReadChoices: %v, want choices.jsonl:2: ...", err)
	}
}

// A proof at a point without a verdict is drawn in the colour of what
// the file selects there; a point of the grid no record has is a blank
// "not measured" cell on the page and "–" in the text.
func TestPictureRaggedGrid(t *testing.T) {
	choices := []Choice{verdict("Gather", 4, 8, 0.6, okAlg(0, "default", 3), okAlg(2, "linear", 3.3))}
	proofs := []Proof{proof("Gather", 8, 1024, Alg{2, "linear"}, -30, 0.001)}
	page, text := renderBoth(t, choices, proofs)
	if !strings.Contains(page, `fill="#8dd3c7" stroke="#fff" stroke-width="2"><title>np 8, 1 KiB: linear; proof −30 %, p 0.001</title>`) {
		t.Errorf("the proof's point is not drawn in linear's colour:\n%s", page)
	}
	if strings.Count(page, "<title>not measured</title>") != 2 {
		t.Errorf("want 2 blank cells:\n%s", page)
	}
	for _, row := range []string{"   4  default  –\n", "   8  –        linear −30 %*\n"} {
		if !strings.Contains(text, row) {
			t.Errorf("the text lacks the row %q:\n%s", row, text)
		}
	}
}
