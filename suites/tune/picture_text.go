package tune

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"mpibench/internal/textout"
)

// WriteText writes the picture of a tune run for a terminal, what tune
// prints at its end: per library and collective a table with a row per
// process count and a column per message length, each cell the algorithm
// the tuning file selects ("default" where the library's own choice is
// kept) and the proof's change as the HTML map's cells give it; then the
// summary of the verdicts and the algorithms that failed.
func WriteText(w io.Writer, choices []Choice, proofs []Proof) error {
	t := textout.New(w)
	panels := panelsOf(choices, proofs)
	if len(panels) == 0 {
		t.Println("No choices and no proofs.")
		return t.Err()
	}
	for _, p := range panels {
		textPanel(t, p)
		t.Println()
	}
	t.Println("Cells: the algorithm selected, and the proof's change of the median (tuned against default; negative is faster, * significant, ~ not).")
	return t.Err()
}

func textPanel(t *textout.Writer, p *panel) {
	t.Println(textout.Clean(p.title()))
	writeColumns(t, textGrid(p))
	t.Println(p.summary())
	for _, pt := range p.points() {
		if f := pt.failed(); len(f) > 0 {
			t.Printf("Failed at np %d, %s: %s\n", pt.np, textout.Bytes(pt.bytes), textout.Clean(failedNames(f)))
		}
	}
}

// textGrid is the panel's table as rows of cells, the header first. The
// cells are cleaned here, before their widths are counted.
func textGrid(p *panel) [][]string {
	head := []string{"np"}
	for _, b := range p.sizes {
		head = append(head, textout.Bytes(b))
	}
	rows := [][]string{head}
	for _, np := range p.nps {
		row := []string{strconv.Itoa(np)}
		for _, b := range p.sizes {
			row = append(row, textCell(p.at[[2]int{np, b}]))
		}
		rows = append(rows, row)
	}
	return rows
}

// textCell is "ring −23 %*", "default ~", "default"; "–" where the grid
// has no point.
func textCell(pt *point) string {
	if pt == nil {
		return "–"
	}
	s := textout.Clean(algName(pt.chosen()))
	if c := cellChange(pt.proof); c != "" {
		s += " " + c
	}
	return s
}

// writeColumns writes rows of cells in columns two spaces apart, the
// first (np) aligned right; widths count runes ("−" is one column).
func writeColumns(t *textout.Writer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for j, cell := range row {
			widths[j] = max(widths[j], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for j, cell := range row {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(cell))
			if j == 0 {
				fmt.Fprintf(&b, "  %s%s", pad, cell)
			} else {
				fmt.Fprintf(&b, "  %s%s", cell, pad)
			}
		}
		t.Println(strings.TrimRight(b.String(), " "))
	}
}
