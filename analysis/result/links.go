package result

import "math"

// Links is the figure of one rank in a record of mpibench links (records
// version 2): one record per figure and measuring rank, with Benchmark
// "links", Class "rank", Mode send, recv or latency, NProcs P, Bytes the
// message length, Reps the iterations and Window the messages in flight.
// The arrays hold one value per partner rank k, 0 at the rank itself: the
// time per message over the iterations, in µs rounded to the nanosecond
// (latency: half the round trip). Bandwidth is Bytes / t_avg_us in MB/s,
// MB = 2^20 bytes, as mpiGraph. Send and latency are measured by the
// sender (Rank, to k), recv by the receiver (Rank, from k): a send record
// is a row of the P×P matrix, a recv record a column. Version 1 had one
// record per ordered pair and figure (Class "pair", Groups [[src, dst]],
// PairHosts).
type Links struct {
	Rank int       `json:"rank"`     // the rank that measured
	Host string    `json:"host"`     // its processor name
	TMin []float64 `json:"t_min_us"` // per partner rank, µs
	TAvg []float64 `json:"t_avg_us"`
	TMax []float64 `json:"t_max_us"`
}

// LinksClassRank is the Class of a links record of version 2.
const LinksClassRank = "rank"

// RoundNs rounds a time in µs to the nanosecond, which is all a links
// file keeps: MPI_Wtime resolves no finer, and a number then takes at
// most a dozen bytes of text.
func RoundNs(us float64) float64 { return math.Round(us*1e3) / 1e3 }

// LinksPairs are the pair records (version 1's shape: Class "pair",
// Groups [[src, dst]], PairHosts) of a links record of version 2, for the
// readers that compare pair by pair; hosts names each rank where known
// (nil: only the measuring rank's own host).
func LinksPairs(r *Record, hosts []string) []Record {
	l := r.Links
	if l == nil {
		return nil
	}
	host := func(k int) string {
		if k == l.Rank {
			return l.Host
		}
		if k < len(hosts) {
			return hosts[k]
		}
		return ""
	}
	var out []Record
	for k := range l.TAvg {
		if k == l.Rank || l.TAvg[k] == 0 {
			continue
		}
		src, dst := l.Rank, k
		if r.Mode == "recv" {
			src, dst = k, l.Rank
		}
		p := *r
		p.Links, p.Class = nil, "pair"
		p.Groups = [][]int{{src, dst}}
		p.PairHosts = []string{host(src), host(dst)}
		p.TMin, p.TAvg, p.TMax = at(l.TMin, k), l.TAvg[k], at(l.TMax, k)
		p.MBps = 0
		if r.Mode != "latency" && p.TAvg > 0 {
			p.MBps = float64(r.Bytes) / p.TAvg * 1e6 / (1 << 20)
		}
		out = append(out, p)
	}
	return out
}

func at(v []float64, k int) float64 {
	if k < len(v) {
		return v[k]
	}
	return 0
}
