package matrix

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

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

// WriteText writes each matrix, its summary and its slow pairs (see
// Slow) at pct percent.
func WriteText(w io.Writer, ms []*Matrix, pct float64) error {
	t := textout.New(w)
	for _, m := range ms {
		t.Printf("\n# %s, %d processes, %d iterations\n", m.Title(), m.P, m.Reps)
		if err := m.writeGrid(w); err != nil {
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

// writeGrid writes the matrix as aligned columns, "-" on the diagonal.
func (m *Matrix) writeGrid(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	t := textout.New(tw)
	head := []string{m.Mode}
	for j := 0; j < m.P; j++ {
		head = append(head, m.Label(j))
	}
	t.Printf("%s\t\n", strings.Join(head, "\t"))
	for i := 0; i < m.P; i++ {
		row := []string{m.Label(i)}
		for j := 0; j < m.P; j++ {
			row = append(row, textout.Number(m.V[i][j]))
		}
		t.Printf("%s\t\n", strings.Join(row, "\t"))
	}
	if t.Err() != nil {
		return t.Err()
	}
	return tw.Flush()
}
