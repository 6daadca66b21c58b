package pgmpi

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzParseLists fuzzes the list flags of the guidelines commands: -calls,
// -thresholds and -window (-sizes is cli.Sizes, tested in internal/cli).
func FuzzParseLists(f *testing.F) {
	for _, s := range []string{
		"", "all", "ALL", "MPI_Allgather,MPI_Gather", " mpi_bcast , MPI_Bcast ", "Gather_as_Allgather", "nosuch",
		"0,1024,65536", "8,-1", "1e3", ",", "rse=0.01,cov_mean=0.02", "cov_median=30", "rse=NaN", "rse=Inf", "x=1", "rse",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if calls, err := ParseCalls(s); err == nil {
			for _, c := range calls {
				if c == nil || Find(c.Name) != c {
					t.Fatalf("ParseCalls(%q): call %v", s, c)
				}
			}
		}
		if kv, err := ParseKeyValues(s); err == nil {
			for k := range kv {
				if !slices.Contains(Methods, k) {
					t.Fatalf("ParseKeyValues(%q): key %q", s, k)
				}
			}
		}
	})
}

func FuzzReadNrep(f *testing.F) {
	var buf bytes.Buffer
	nf := &NrepFile{Procs: 4, Criteria: DefaultCriteria(), Entries: []NrepEntry{
		{Call: "MPI_Bcast", Bytes: 1024, Reps: 30, Predictions: []int{20, 30}, Reached: []bool{true, true}},
	}}
	nf.Write(&buf)
	for _, s := range []string{
		buf.String(), "", "{}", "null", "[]", `{"entries":[{"call":"nosuch","reps":1}]}`,
		`{"entries":[{"call":"MPI_Bcast","reps":0}]}`, `{"entries":[{"call":"MPI_Bcast","bytes":-1,"reps":1}]}`,
		`{"procs":2,"entries":[]} trailing`, `{"criteria":{"thresholds":{"rse":1e999}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nf, err := ReadNrep(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, e := range nf.Entries {
			if Find(e.Call) == nil || e.Reps < 1 || e.Reps > MaxReps || e.Bytes < 0 || e.Bytes > MaxBytes {
				t.Fatalf("ReadNrep accepted entry %+v", e)
			}
		}
		var out bytes.Buffer
		if err := nf.Write(&out); err != nil {
			t.Fatalf("Write: %v", err)
		}
		again, err := ReadNrep(&out)
		if err != nil || !reflect.DeepEqual(nf, again) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, nf, again)
		}
	})
}
