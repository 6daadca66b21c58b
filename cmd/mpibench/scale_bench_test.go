package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"mpibench/analysis/result"
)

// scaleRecords is the size of the generated results file of the scale
// benchmarks: a million records, about 300 MB in records version 2 and 3 (740
// MB in version 1, which repeated the context on every line).
const scaleRecords = 1_000_000

// scaleFile writes n records shaped like what the IMB suites write, as
// the Writer writes them (version 3: a header per run), every benchmark of a default mpi1 run
// at the 25 default lengths, runs appended to one file (each run has its
// own start time), so that every measurement is repeated many times.
func scaleFile(tb testing.TB, dir string, n int) string {
	tb.Helper()
	path := filepath.Join(dir, "scale.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := scaleWrite(bw, n); err != nil {
		tb.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

var scaleBenchmarks = []struct {
	name, class string
	np          int
}{
	{"PingPong", "single", 2}, {"PingPing", "single", 2}, {"Sendrecv", "parallel", 4},
	{"Exchange", "parallel", 4}, {"Allreduce", "collective", 4}, {"Reduce", "collective", 4},
	{"Reduce_scatter", "collective", 4}, {"Allgather", "collective", 4}, {"Allgatherv", "collective", 4},
	{"Gather", "collective", 4}, {"Scatter", "collective", 4}, {"Alltoall", "collective", 4},
	{"Bcast", "collective", 4}, {"Barrier", "collective", 4},
}

func scaleWrite(w io.Writer, n int) error {
	rw := result.NewWriter(w)
	for i, run := 0, 0; i < n; run++ {
		ctx := result.Context{Tool: "mpibench 0.13.0", Start: fmt.Sprintf("2026-11-%02dT%02d:%02d:00Z", 1+run/1440%28, run/60%24, run%60),
			Host: "node017", Hosts: []string{"node017", "node018"},
			MPI: "openmpi", MPIVersion: "3.1", MPILibrary: "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022",
			ThreadLevel: "single", Procs: 4, Args: []string{"mpi1", "-npmin", "2", "-time", "10"},
			Machine: "x86_64", System: "Linux", Release: "6.1.0-27-amd64", Version: "#1 SMP Debian 6.1.115-1"}
		for _, b := range scaleBenchmarks {
			groups := [][]int{{0, 1}}
			if b.np == 4 {
				groups = [][]int{{0, 1, 2, 3}}
			}
			for k := 0; k < 25 && i < n; k, i = k+1, i+1 {
				bytes := 0
				if k > 0 {
					bytes = 1 << (k - 1)
				}
				t := (0.4 + float64(bytes)/5e3) * (1 + 0.05*float64((i*7919)%13)/13)
				r := result.Record{Suite: "mpi1", Benchmark: b.name, Class: b.class, Multi: -1, Group: -1,
					NProcs: b.np, Groups: groups, Bytes: bytes, Reps: 1000, TMin: t * 0.97, TMax: t, TAvg: t * 0.985,
					MBps: float64(bytes) / t / 1.048576, Case: fmt.Sprintf("mpi1/%s/np%d", b.name, b.np), Context: ctx}
				if err := rw.Write(&r); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// scaleInput makes the million-record file once per benchmark run in a
// temporary directory that the testing package deletes.
func scaleInput(b *testing.B) string {
	b.Helper()
	return scaleFile(b, b.TempDir(), scaleRecords)
}

// BenchmarkReportScale renders the million records as HTML; issue 13's
// goal is 10 s, 500 MB of RSS and 20 MB of HTML.
func BenchmarkReportScale(b *testing.B) {
	in := scaleInput(b)
	out := filepath.Join(b.TempDir(), "report.html")
	b.ResetTimer()
	for range b.N {
		if code := runReport([]string{in, "-o", out}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("report: exit %d", code)
		}
	}
	b.StopTimer()
	if st, err := os.Stat(out); err == nil {
		b.ReportMetric(float64(st.Size())/1e6, "MB-html")
	}
}

// BenchmarkMergeScale merges the million records; the goal is 5 s and
// 500 MB of RSS.
func BenchmarkMergeScale(b *testing.B) {
	in := scaleInput(b)
	out := filepath.Join(b.TempDir(), "merged.jsonl")
	b.ResetTimer()
	for range b.N {
		if code := runMerge([]string{in, "-o", out}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("merge: exit %d", code)
		}
	}
}

// TestScaleFileShape checks the generator on a few records, so that the
// benchmarks measure records the reader takes.
func TestScaleFileShape(t *testing.T) {
	path := scaleFile(t, t.TempDir(), 400)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, warns, err := result.Read(f, path)
	if err != nil || len(warns) != 0 || len(recs) != 400 {
		t.Fatalf("read %d records, %d warnings, %v", len(recs), len(warns), err)
	}
	st, _ := os.Stat(path)
	if per := st.Size() / 400; per < 250 || per > 350 {
		t.Errorf("%d bytes per record, want about 300", per)
	}
}
