package report

import (
	"fmt"

	"mpibench/analysis/result"
)

// Comparison is one of the plots of section 6 of the SKaMPI report
// (Reussner, Sanders, Prechelt, Müller 1998, appendix A): two
// measurements drawn together.
type Comparison struct {
	Section string // 6.1 ... 6.15
	Title   string
	A, B    string // SKaMPI measurement names
}

// Comparisons are the paper's, in its order. The paper lists "MPI_Send
// to MPI_Recv and MPI_Sendrecv" twice (6.5 and 6.7); 6.7 here compares
// with MPI_Send to MPI_Irecv, the one ping-pong of section 2 that no
// other comparison covers.
var Comparisons = []Comparison{
	{"6.1", "MPI_Send to MPI_Recv and MPI_Isend to MPI_Recv", "Pingpong_Send_Recv", "Pingpong_Isend_Recv"},
	{"6.2", "MPI_Send to MPI_Recv and MPI_Ssend to MPI_Recv", "Pingpong_Send_Recv", "Pingpong_Ssend_Recv"},
	{"6.3", "MPI_Send to MPI_Recv and MPI_Bsend to MPI_Recv", "Pingpong_Send_Recv", "Pingpong_Bsend_Recv"},
	{"6.4", "MPI_Send to MPI_Recv and MPI_Iprobe (followed by MPI_Recv)", "Pingpong_Send_Recv", "Pingpong_Send_Iprobe_Recv"},
	{"6.5", "MPI_Send to MPI_Recv and MPI_Sendrecv", "Pingpong_Send_Recv", "Pingpong_Sendrecv"},
	{"6.6", "MPI_Send to MPI_Recv and MPI_Send-MPI_Recv (receiving with Any_tag)", "Pingpong_Send_Recv", "Pingpong_Send_Recv_AT"},
	{"6.7", "MPI_Send to MPI_Recv and MPI_Send to MPI_Irecv", "Pingpong_Send_Recv", "Pingpong_Send_Irecv"},
	{"6.8", "MPI_Send to MPI_Recv and MPI_Sendrecv_replace", "Pingpong_Send_Recv", "Pingpong_Sendrecv_replace"},
	{"6.9", "MPI_Sendrecv and MPI_Sendrecv_replace", "Pingpong_Sendrecv", "Pingpong_Sendrecv_replace"},
	{"6.10", "MPI_Waitsome to MPI_Send and MPI_Waitany to MPI_Send", "MW_Waitsome", "MW_Waitany"},
	{"6.11", "MPI_Send and MPI_Isend (master-worker)", "MW_Send", "MW_Isend"},
	{"6.12", "MPI_Send and MPI_Ssend (master-worker)", "MW_Send", "MW_Ssend"},
	{"6.13", "MPI_Reduce and MPI_Scan", "Reduce", "Scan"},
	{"6.14", "MPI_Bcast over the number of processes, 256 bytes and 64 KiB", "Bcast_nodes_256", "Bcast_nodes_64K"},
	{"6.15", "MPI_Alltoall over the number of processes, 256 bytes and 64 KiB", "Alltoall_nodes_256", "Alltoall_nodes_64K"},
}

// Compare builds the plots of the comparisons whose two measurements are
// both among the SKaMPI measurements: each side of each input is one
// series, A solid and B dashed.
func Compare(ms []*Measurement) []*Measurement {
	byName := map[string]*Measurement{}
	for _, m := range ms {
		if m.Suite == result.SuiteSkampi && len(m.Series) > 0 {
			name := skampiName(m)
			if byName[name] == nil {
				byName[name] = m
			}
		}
	}
	var out []*Measurement
	for _, c := range Comparisons {
		a, b := byName[c.A], byName[c.B]
		if a == nil || b == nil {
			continue
		}
		out = append(out, compareOne(c, a, b))
	}
	return out
}

// skampiName is the measurement name a SKaMPI Measurement was made from.
func skampiName(m *Measurement) string {
	return m.Series[0].Name
}

func compareOne(c Comparison, a, b *Measurement) *Measurement {
	m := &Measurement{
		ID: anchor("compare-" + c.Section), Suite: "compare",
		Title:  fmt.Sprintf("%s %s", c.Section, c.Title),
		XLabel: a.XLabel, YLabel: a.YLabel, LogX: a.LogX && b.LogX,
		Note: fmt.Sprintf("%s solid, %s dashed; trimmed means with their standard errors.", c.A, c.B),
	}
	n := 0
	for kind, side := range []*Measurement{a, b} {
		for _, s := range side.Series {
			m.Series = append(m.Series, &Series{Label: s.Name + " " + s.Label, Name: s.Name,
				Input: n, Kind: kind, Points: compareStrip(s.Points)})
			n++
		}
	}
	return m
}

// compareStrip drops the allowed-error band: two bands over each other
// hide the lines.
func compareStrip(ps []Point) []Point {
	out := make([]Point, len(ps))
	for i, p := range ps {
		p.Band = 0
		out[i] = p
	}
	return out
}
