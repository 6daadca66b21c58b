package matrix

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"mpibench/internal/textout"
)

// Label names rank i as mpiGraph does, host:rank, or the rank alone
// when its host is not known.
func (m *Matrix) Label(i int) string {
	if m.Hosts[i] == "" {
		return strconv.Itoa(i)
	}
	return m.Hosts[i] + ":" + strconv.Itoa(i)
}

// Title says what the matrix holds.
func (m *Matrix) Title() string {
	switch m.Mode {
	case Send:
		return fmt.Sprintf("Send bandwidth (MB/s, MB = 2^20 bytes), %d-byte messages, window %d: row sends to column", m.Bytes, m.Window)
	case Recv:
		return fmt.Sprintf("Receive bandwidth (MB/s, MB = 2^20 bytes), %d-byte messages, window %d: column receives from row", m.Bytes, m.Window)
	}
	return "Latency (µs, half the round trip of an empty message): row pings column"
}

// WriteText writes each matrix (its grid when grids is true), its
// summary and its slow pairs (see Slow) at pct percent.
func WriteText(w io.Writer, ms []*Matrix, pct float64, grids bool) error {
	t := textout.New(w)
	for _, m := range ms {
		t.Printf("\n# %s, %d processes, %d iterations\n", m.Title(), m.P, m.Reps)
		if !grids {
			t.Printf("# (grid not printed: -matrices 0)\n")
		} else if err := m.writeGrid(w); err != nil {
			return err
		}
		lo, med, hi := m.Summary()
		t.Printf("# min %s  median %s  max %s %s\n", textout.Number(lo), textout.Number(med), textout.Number(hi), m.Unit())
		slow := m.Slow(pct)
		cmp := "below"
		if !m.HigherBetter() {
			cmp = "above"
		}
		t.Printf("# %d slow pairs (more than %g%% %s the median of the other pairs of their row or column)\n", len(slow), pct, cmp)
		for _, p := range slow {
			t.Printf("#   %s -> %s: %s %s (row median %s, column median %s)\n", m.Label(p.Src), m.Label(p.Dst),
				textout.Number(p.Value), m.Unit(), textout.Number(p.RowMedian), textout.Number(p.ColMedian))
		}
	}
	return t.Err()
}

// writeGrid writes the matrix as right-aligned columns two spaces apart
// (the layout of text/tabwriter with AlignRight and padding 2), "–" on
// the diagonal. It streams: a first pass finds each column's width, the
// second writes row by row, so that the text of a large matrix (P² cells)
// costs O(P) memory; a tabwriter holds every cell until its flush, about
// 100 bytes a cell, 10 GB at 10,000 ranks.
func (m *Matrix) writeGrid(w io.Writer) error {
	width := m.columnWidths()
	bw := bufio.NewWriter(w)
	row := make([]string, m.P+1)
	for i := -1; i < m.P; i++ {
		m.gridRow(row, i)
		for c, cell := range row {
			pad := width[c] + 2 - utf8.RuneCountInString(cell)
			for ; pad > 0; pad-- {
				_ = bw.WriteByte(' ') // a failed write is kept by bw and returned by Flush
			}
			_, _ = bw.WriteString(cell)
		}
		_ = bw.WriteByte('\n')
	}
	return bw.Flush()
}

// gridRow fills row with the cells of grid line i: the header (column
// labels) for i = -1, else rank i's label and values.
func (m *Matrix) gridRow(row []string, i int) {
	if i < 0 {
		row[0] = m.Mode
		for j := 0; j < m.P; j++ {
			row[j+1] = m.Label(j)
		}
		return
	}
	row[0] = m.Label(i)
	for j := 0; j < m.P; j++ {
		row[j+1] = textout.Number(m.V[i][j])
	}
}

// columnWidths is the widest cell of each column of the grid, in runes.
func (m *Matrix) columnWidths() []int {
	width := make([]int, m.P+1)
	row := make([]string, m.P+1)
	for i := -1; i < m.P; i++ {
		m.gridRow(row, i)
		for c, cell := range row {
			width[c] = max(width[c], utf8.RuneCountInString(cell))
		}
	}
	return width
}
