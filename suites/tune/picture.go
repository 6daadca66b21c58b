package tune

// The picture of a tune run: choices.jsonl and proof.jsonl read back and
// laid out per collective on its grid of process counts × message
// lengths, for the HTML page (picture_html.go) and the terminal
// (picture_text.go). Both renderers walk the same panels, in the same
// order, so that the page and the text never disagree.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"mpibench/internal/textout"
)

// maxLine is the longest line the readers take: a choice holds every
// algorithm's samples, a few kB; anything near this is not a tune file.
const maxLine = 16 << 20

// ReadChoices reads choices.jsonl line by line. Unlike results files a
// line that does not parse stops the read, with name and line number: a
// point silently dropped would read as a point never measured.
func ReadChoices(r io.Reader, name string) ([]Choice, error) {
	return readLines(r, name, func(c *Choice) error { return checkPoint(c.Coll, c.NP, c.Bytes) })
}

// ReadProofs reads proof.jsonl as ReadChoices reads choices.jsonl.
func ReadProofs(r io.Reader, name string) ([]Proof, error) {
	return readLines(r, name, func(p *Proof) error { return checkPoint(p.Coll, p.NP, p.Bytes) })
}

// readLines decodes one T per non-blank line and checks it.
func readLines[T any](r io.Reader, name string, check func(*T) error) ([]T, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	var out []T
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var v T
		err := decodeLine(text, &v)
		if err == nil {
			err = check(&v)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return out, nil
}

// decodeLine decodes one JSON object, refusing unknown fields (tune
// writes and reads these files itself: a field it does not know is a
// misspelt or foreign file, whose figures would read as zeros) and text
// after the object.
func decodeLine(text []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.InputOffset() != int64(len(text)) {
		return errors.New("text after the record")
	}
	return nil
}

// checkPoint refuses a record that places nowhere on a grid ("null" or
// "{}" decode without error).
func checkPoint(coll string, np, bytes int) error {
	switch {
	case coll == "":
		return errors.New("no collective (coll)")
	case np < 1:
		return fmt.Errorf("np %d is not a process count", np)
	case bytes < 0:
		return fmt.Errorf("bytes %d is not a message length", bytes)
	}
	return nil
}

// point is one cell of a grid: the verdict and its proof, either may be
// missing (a proof is only run where tune chose).
type point struct {
	np, bytes int
	choice    *Choice
	proof     *Proof
}

// panel is one collective of one library on its grid.
type panel struct {
	library, coll string
	nps, sizes    []int // ascending
	at            map[[2]int]*point
}

// panelsOf groups the records by library and collective, libraries by
// name, collectives in the order of Colls (others after, by name). Where
// a point has several lines of a kind, the last one counts, as a rerun
// appended to the file would.
func panelsOf(choices []Choice, proofs []Proof) []*panel {
	byKey := map[[2]string]*panel{}
	var list []*panel
	pointAt := func(lib, coll string, np, bytes int) *point {
		p := byKey[[2]string{lib, coll}]
		if p == nil {
			p = &panel{library: lib, coll: coll, at: map[[2]int]*point{}}
			byKey[[2]string{lib, coll}] = p
			list = append(list, p)
		}
		return p.point(np, bytes)
	}
	for i := range choices {
		c := &choices[i]
		pointAt(c.Library, c.Coll, c.NP, c.Bytes).choice = c
	}
	for i := range proofs {
		pr := &proofs[i]
		pointAt(pr.Library, pr.Coll, pr.NP, pr.Bytes).proof = pr
	}
	for _, p := range list {
		slices.Sort(p.nps)
		slices.Sort(p.sizes)
	}
	slices.SortFunc(list, comparePanels)
	return list
}

// point is the point at np × bytes, added to the grid if new.
func (p *panel) point(np, bytes int) *point {
	k := [2]int{np, bytes}
	if pt := p.at[k]; pt != nil {
		return pt
	}
	if !slices.Contains(p.nps, np) {
		p.nps = append(p.nps, np)
	}
	if !slices.Contains(p.sizes, bytes) {
		p.sizes = append(p.sizes, bytes)
	}
	pt := &point{np: np, bytes: bytes}
	p.at[k] = pt
	return pt
}

func comparePanels(a, b *panel) int {
	if c := strings.Compare(a.library, b.library); c != 0 {
		return c
	}
	if c := collRank(a.coll) - collRank(b.coll); c != 0 {
		return c
	}
	return strings.Compare(a.coll, b.coll)
}

// collRank is the place of an IMB name in Colls, unknown ones last.
func collRank(name string) int {
	for i, c := range Colls {
		if c.Name == name {
			return i
		}
	}
	return len(Colls)
}

// points are the panel's points, row by row (np), each row by bytes.
func (p *panel) points() []*point {
	var out []*point
	for _, np := range p.nps {
		for _, b := range p.sizes {
			if pt := p.at[[2]int{np, b}]; pt != nil {
				out = append(out, pt)
			}
		}
	}
	return out
}

// title is the heading of a panel: "Allreduce (openmpi)".
func (p *panel) title() string {
	if p.library == "" {
		return p.coll
	}
	return p.coll + " (" + p.library + ")"
}

// chosen is what the tuning file selects at the point: the verdict's
// choice, or the proof's where the verdict is missing.
func (pt *point) chosen() Alg {
	if pt.choice != nil {
		return pt.choice.Chosen
	}
	return pt.proof.Chosen
}

// listed says whether the point has a row of its own in the panel's
// table: where the default was the fastest and nothing was rerun, the
// summary's count says enough.
func (pt *point) listed() bool {
	c := pt.choice
	return c == nil || !c.Winner.IsDefault() || pt.proof != nil
}

// failed are the algorithms that failed at the point.
func (pt *point) failed() []Measured {
	if pt.choice == nil {
		return nil
	}
	var out []Measured
	for _, m := range pt.choice.Algs {
		if m.Status == "failed" {
			out = append(out, m)
		}
	}
	return out
}

// algs are the algorithms chosen somewhere in the panel, the default left
// out, by ID: the legend, whose order gives the colours.
func (p *panel) algs() []Alg {
	var out []Alg
	for _, pt := range p.points() {
		if a := pt.chosen(); !a.IsDefault() && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b Alg) int {
		if a.ID != b.ID {
			return a.ID - b.ID
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// summary says in one sentence how the panel's verdicts went, counting
// the points with a verdict.
func (p *panel) summary() string {
	var n, fastest, kept, chosen int
	for _, pt := range p.points() {
		c := pt.choice
		switch {
		case c == nil:
			continue
		case !c.Chosen.IsDefault():
			chosen++
		case c.Winner.IsDefault():
			fastest++
		default:
			kept++
		}
		n++
	}
	s := fmt.Sprintf("Of %s with a verdict: the default already fastest at %d", count(n, "point"), fastest)
	if kept > 0 {
		s += fmt.Sprintf(", kept at %d where a faster one was not significantly faster", kept)
	}
	return s + fmt.Sprintf(", replaced at %d.", chosen)
}

// count is "1 point", "2 points".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// algName is an algorithm as the picture names it.
func algName(a Alg) string {
	switch {
	case a.IsDefault():
		return "default"
	case a.Name == "":
		return "#" + strconv.Itoa(a.ID)
	}
	return a.Name
}

// failedNames are the names of the point's failed algorithms.
func failedNames(ms []Measured) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = algName(m.Alg)
	}
	return strings.Join(names, ", ")
}

// winnerGain is how much faster the winner was measured than the
// default, in percent: the verdict's Gain where it chose, else (Gain is 0
// when the default is kept) from the medians.
func winnerGain(c *Choice) (float64, bool) {
	if !c.Chosen.IsDefault() {
		return c.Gain, true
	}
	def := median(c, func(a Alg) bool { return a.IsDefault() })
	win := median(c, func(a Alg) bool { return a == c.Winner })
	if def <= 0 || win <= 0 {
		return 0, false
	}
	return 100 * (def - win) / def, true
}

// median is the median of the first algorithm at the choice that is
// picked and has launches, 0 if none.
func median(c *Choice, pick func(Alg) bool) float64 {
	for _, m := range c.Algs {
		if pick(m.Alg) && m.Status == "ok" {
			return m.Median
		}
	}
	return 0
}

// pct writes a change or gain in percent with its sign ("−23.41 %"),
// the minus a true minus sign as the table's figures are read, not
// parsed.
func pct(v float64) string {
	return sign(v) + textout.Number(math.Abs(v)) + " %"
}

// cellChange is the proof's change as a cell shows it: "−23 %*" when
// significant, "~" when not, "" without a proof. Whole percents from ten
// up, one decimal below: the cell is small, the table has the figures.
func cellChange(pr *Proof) string {
	if pr == nil {
		return ""
	}
	if !pr.Significant {
		return "~"
	}
	a := math.Abs(pr.Change)
	d := 1
	if a >= 9.95 {
		d = 0
	}
	s := strings.TrimSuffix(strconv.FormatFloat(a, 'f', d, 64), ".0")
	if s == "0" {
		return "0 %*"
	}
	return sign(pr.Change) + s + " %*"
}

func sign(v float64) string {
	switch {
	case v < 0:
		return "−"
	case v > 0:
		return "+"
	}
	return ""
}

// significance marks a p-value below α with "*", as the cells do.
func significance(p, alpha float64) string {
	s := textout.Number(p)
	if p < alpha {
		s += "*"
	}
	return s
}
