package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"mpibench/analysis/result"
)

// writeLarge writes, through a journal, a results file of a finished run
// of cases cases with per records each, as a default run writes them
// (mpi1-like records of one run, one header), and returns its size.
func writeLarge(tb testing.TB, path string, cases, per int) int64 {
	tb.Helper()
	j, err := Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := result.Context{Tool: "mpibench 0.1.0", Start: "2026-01-02T03:04:05Z", Host: "node001",
		Hosts: []string{"node001", "node002"}, MPI: "openmpi", MPIVersion: "3.1",
		MPILibrary:  "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022",
		ThreadLevel: "MPI_THREAD_SINGLE", Procs: 2, Args: []string{"mpi1", "-json", path},
		Machine: "x86_64", System: "Linux", Release: "6.1.0", Version: "#1 SMP", IMB: "3.0"}
	recs := make([]*result.Record, per)
	for c := 0; c < cases; c++ {
		key := fmt.Sprintf("mpi1/PingPong-%d/np2", c)
		for i := range recs {
			recs[i] = &result.Record{Suite: "mpi1", Benchmark: "PingPong", Class: "single", Multi: -1,
				Group: -1, NProcs: 2, Bytes: 1 << (i % 23), Reps: 1000,
				TMin: 0.3812345 + float64(i), TMax: 0.3898765 + float64(c), TAvg: 0.3854321 + float64(i),
				MBps: 2572.123456 + float64(c), Defects: 0, TimeLimit: 10, Context: ctx}
		}
		if err := j.Start(key); err != nil {
			tb.Fatal(err)
		}
		if err := j.Finish(key, recs); err != nil {
			tb.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		tb.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return st.Size()
}

// BenchmarkResume resumes a finished run of 200,000 records (20,000
// cases of 10), about 60 MB: the pass over the file and its rewrite.
// Peak memory: run it alone under /usr/bin/time -v
// (go test -c, then ./journal.test -test.run '^$' -test.bench Resume -test.benchtime 1x).
func BenchmarkResume(b *testing.B) {
	path := filepath.Join(b.TempDir(), "r.jsonl")
	size := writeLarge(b, path, 20000, 10)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j, r, err := Resume(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Done) != 20000 {
			b.Fatalf("%d cases done", len(r.Done))
		}
		if err := j.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
