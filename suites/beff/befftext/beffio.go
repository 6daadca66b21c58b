package befftext

import (
	"fmt"
	"io"
	"strings"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
)

// BeffIOText renders the records of one b_eff_io run: a header, every
// pattern of every partition and access method, per partition the table
// of bandwidth per chunk size and pattern type (the layout of the
// original's summary protocol) with the weighted averages, and, last, the
// line the original b_eff_io ends with. Everything comes from the
// records; the summary record must be among them.
func BeffIOText(w io.Writer, recs []result.Record) error {
	t := &beffText{textout.NewCleaning(w)}
	var sum *result.Record
	for i := range recs {
		if recs[i].Suite == result.SuiteBeffIO && recs[i].BeffIO != nil {
			sum = &recs[i]
		}
	}
	if sum == nil {
		return fmt.Errorf("b_eff_io: no summary record")
	}
	s := sum.BeffIO
	beffioHeader(t, sum.Context, s)
	for _, p := range s.Partitions {
		beffioPatterns(t, recs, p.Procs)
		beffioTable(t, recs, s, p)
	}
	t.Printf("\n b_eff_io = %8.3f MB/s on %d processes with %d MByte/PE, scheduled time=%.2f Min, on %s\n",
		s.BeffIO, s.Procs, s.MemMB, s.T/float64(len(s.Partitions))/60, s.Uname)
	return t.Err()
}

func beffioHeader(t *beffText, c result.Context, s *result.BeffIOSummary) {
	rule := "#" + strings.Repeat("-", 63)
	t.Printf("%s\n#    %s, b_eff_io: effective I/O bandwidth benchmark\n%s\n", rule, c.Tool, rule)
	var parts []string
	for _, p := range s.Partitions {
		parts = append(parts, fmt.Sprint(p.Procs))
	}
	for _, kv := range [][2]string{
		{"Date", c.Start}, {"MPI Library", c.MPILibrary}, {"Hosts", strings.Join(c.Hosts, " ")},
		{"Processes", fmt.Sprint(c.Procs)}, {"Partitions", strings.Join(parts, ",")},
		{"Memory per process", fmt.Sprintf("%d MBytes  [1 MBytes = 1024*1024 bytes]", s.MemMB)},
		{"M_PART", fmt.Sprintf("%d bytes = max(2 MBytes, memory per process / 128)", s.MPart)},
		{"Scheduled time T", fmt.Sprintf("%g s for all partitions; a pattern gets T/partitions*U/%d/3", s.T, s.SumU)},
		{"Calling sequence", "mpibench " + strings.Join(c.Args, " ")},
	} {
		t.Printf("# %-20s: %s\n", kv[0], kv[1])
	}
	t.Printf("# Bandwidths in MB/s, 1 MB = 10^6 bytes\n")
}

// beffioPatterns lists every pattern record of one partition.
func beffioPatterns(t *beffText, recs []result.Record, procs int) {
	t.Printf("\n# Patterns on %d processes (t from barrier to barrier, writes include MPI_File_sync)\n", procs)
	t.Printf("%-4s %-10s %-7s %10s %10s %2s %8s %8s %12s %9s %10s\n",
		"pat", "type", "access", "l [B]", "L [B]", "U", "sched[s]", "repeat", "MB", "t [s]", "MB/s")
	cut := 0
	for _, r := range recs {
		if r.Suite != result.SuiteBeffIO || r.NProcs != procs || r.BeffIO != nil {
			continue
		}
		if r.Benchmark == "total" {
			t.Printf("%-4s %-10s %-7s %10s %10s %2s %8s %8s %12.3f %9.3f %10.3f\n", "all", r.Class, r.Mode,
				"", "", "", "", "", float64(r.IOBytes)/1e6, r.TMax/1e6, r.IOMBps)
			continue
		}
		mark := ""
		if r.Cut == result.CutDisk {
			mark, cut = "  < -disk", cut+1
		}
		t.Printf("%-4s %-10s %-7s %10d %10d %2d %8.3f %8d %12.3f %9.3f %10.3f%s\n", r.Benchmark, r.Class, r.Mode,
			r.Bytes, r.MemBytes, r.Units, r.SchedSec, r.Reps, float64(r.IOBytes)/1e6, r.TMax/1e6, r.IOMBps, mark)
	}
	if cut > 0 {
		// Where the figures stand, not only on stderr (issue 26).
		t.Printf("# < -disk: %d time-driven patterns stopped at the -disk bound before their scheduled time "+
			"(t below sched); raise -disk for a run that meets the paper's file sizes\n", cut)
	}
}

// beffioTable is the original's summary: bandwidth per chunk size (rows)
// and pattern type (columns) for each access method, the type totals, the
// weighted averages and the partition's b_eff_io.
func beffioTable(t *beffText, recs []result.Record, s *result.BeffIOSummary, p result.BeffIOPartition) {
	t.Printf("\nSummary of file I/O bandwidth accumulated on %3d processes with %4d MByte/PE\n", p.Procs, s.MemMB)
	t.Printf("-----------------------------------------------------------------------------\n\n")
	t.Printf(" number pos chunk-   access   type=0   type=1   type=2   type=3   type=4\n")
	t.Printf(" of PEs     size (l) method  scatter   shared separate segmentd seg-coll\n")
	t.Printf("            [bytes]           [MB/s]   [MB/s]   [MB/s]   [MB/s]   [MB/s]\n")
	t.Printf(" -----------------------------------------------------------------------\n")
	for a, acc := range s.Accesses {
		cells, sizes := beffioCells(recs, p.Procs, acc, s.Types)
		for pos := 1; pos <= 7; pos++ {
			t.Printf("%4d PEs %1d %8d %-7s", p.Procs, pos, sizes[pos], acc)
			for ty := range s.Types {
				t.Printf(" %8.3f", cells[pos][ty])
			}
			t.Printf("\n")
		}
		t.Printf("%4d PEs   total-%-10s", p.Procs, acc)
		for _, v := range p.Types[a] {
			t.Printf(" %8.3f", v)
		}
		t.Printf("\n\n")
	}
	pat2 := map[string]float64{}
	for _, r := range recs {
		if r.Suite == result.SuiteBeffIO && r.NProcs == p.Procs && r.Pos == 8 {
			pat2[r.Mode] = r.IOMBps
		}
	}
	t.Printf("This table shows all results, except pattern 2 (scatter, l=1MBytes, L=2MBytes):\n")
	t.Printf("  bw_pat2= %8.3f MB/s write, %8.3f MB/s rewrite, %8.3f MB/s read\n\n",
		pat2["write"], pat2["rewrite"], pat2["read"])
	for a, acc := range s.Accesses {
		t.Printf("weighted average bandwidth for %-7s : %8.3f MB/s on %d processes\n", acc, p.Access[a], p.Procs)
	}
	t.Printf("(type=0 is weighted double)\n")
	t.Printf("b_eff_io of these measurements = %8.3f MB/s on %d processes with %d MByte/PE and scheduled time=%.2f min\n",
		p.Value, p.Procs, s.MemMB, p.T/60)
	t.Printf("  (= 0.25*write + 0.25*rewrite + 0.5*read)\n")
}

// beffioCells picks the bandwidth of every table position and type, and
// the chunk size of every position.
func beffioCells(recs []result.Record, procs int, access string, types []string) (cells [8][]float64, sizes [8]int) {
	col := map[string]int{}
	for i, ty := range types {
		col[ty] = i
	}
	for i := range cells {
		cells[i] = make([]float64, len(types))
	}
	for _, r := range recs {
		if r.Suite != result.SuiteBeffIO || r.NProcs != procs || r.Mode != access || r.Pos < 1 || r.Pos > 7 {
			continue
		}
		cells[r.Pos][col[r.Class]] = r.IOMBps
		sizes[r.Pos] = r.Bytes
	}
	return cells, sizes
}
