// Package guideline is the analysis side of PGMPI (Hunold et al.,
// Euro-Par 2016): it reads the per-launch records the pgmpi measurements
// wrote, reduces each launch and size to its median, and checks the
// self-consistent performance guidelines — monotony (GL1), split-robustness
// (GL2) and the pattern guidelines that compare an MPI function with a
// mock-up of it — by two-sample tests on the distributions of those
// medians (section IV-C). The guidelines are data: a plain text file, the
// default of which holds GL1-GL17 of the paper's appendix A.
package guideline

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
)

// Kind is the type of a guideline, the m, s and p of the paper's tables.
type Kind int

const (
	Monotony Kind = iota // relation "monotone"
	Split                // relation "split"
	Pattern              // relation "<="
)

// Letter is the kind's column in the tables: m, s or p.
func (k Kind) Letter() string { return [...]string{"m", "s", "p"}[k] }

func (k Kind) String() string {
	return [...]string{"monotony", "split-robustness", "pattern"}[k]
}

var relations = map[string]Kind{"monotone": Monotony, "split": Split, "<=": Pattern}

// Guideline is one line of a guideline file.
type Guideline struct {
	ID      string // e.g. GL3
	Left    string // the MPI function, "*" for every function
	Kind    Kind
	Right   string // the mock-up of a pattern guideline, else "*"
	Mapping string // how the volume n maps to the calls, as written
	Line    int    // where the line is in its file
}

// Applies reports whether the guideline concerns function f.
func (g Guideline) Applies(f string) bool { return g.Left == "*" || g.Left == f }

//go:embed default.txt
var defaultText string

// Default returns GL1-GL17.
func Default() []Guideline {
	gs, err := Parse(strings.NewReader(defaultText), "default.txt")
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return gs
}

// Load reads the guideline file at path.
func Load(path string) ([]Guideline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	return Parse(f, path)
}

// Parse reads guidelines, one per line: id, left, relation, right and the
// mapping (the rest of the line); blank lines and lines starting with #
// are skipped. Unlike results files a bad line stops the read: a
// guideline silently dropped would read as a guideline satisfied.
func Parse(r io.Reader, name string) ([]Guideline, error) {
	var gs []Guideline
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		g, err := parseLine(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if first, ok := seen[g.ID]; ok {
			return nil, fmt.Errorf("%s:%d: id %q already used on line %d", name, line, g.ID, first)
		}
		seen[g.ID] = line
		g.Line = line
		gs = append(gs, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(gs) == 0 {
		return nil, fmt.Errorf("%s: no guidelines", name)
	}
	return gs, nil
}

func parseLine(text string) (Guideline, error) {
	f := strings.Fields(text)
	if len(f) < 5 {
		return Guideline{}, fmt.Errorf("%q: want id, left, relation, right and mapping, got %d fields", text, len(f))
	}
	kind, ok := relations[f[2]]
	if !ok {
		return Guideline{}, fmt.Errorf("relation %q: want monotone, split or <=", f[2])
	}
	g := Guideline{ID: f[0], Left: f[1], Kind: kind, Right: f[3], Mapping: mappingOf(text)}
	switch {
	case kind == Pattern && (g.Left == "*" || g.Right == "*"):
		return g, fmt.Errorf("pattern guideline %s: left and right must name calls, got %q and %q", g.ID, g.Left, g.Right)
	case kind != Pattern && g.Right != "*":
		return g, fmt.Errorf("%s guideline %s: right %q: want \"*\"", kind, g.ID, g.Right)
	}
	return g, nil
}

// mappingOf is the text after the fourth field, with its inner spacing
// kept. Fields end where strings.Fields ends them: at any Unicode space.
func mappingOf(text string) string {
	rest := text
	for i := 0; i < 4; i++ {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		rest = rest[strings.IndexFunc(rest, unicode.IsSpace):]
	}
	return strings.TrimSpace(rest)
}

// DefaultText is the default guideline file, to start one's own from.
func DefaultText() string { return defaultText }
