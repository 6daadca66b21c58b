package result

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func testContext() Context {
	return Context{
		Tool: "mpibench 0.1.0", Start: "2024-03-05T09:07:02Z", Host: "node01",
		Hosts: []string{"node01", "node02"}, MPI: "openmpi", MPIVersion: "3.1",
		MPILibrary: "Open MPI v4.1.6", ThreadLevel: "MPI_THREAD_FUNNELED", Procs: 4,
		Args: []string{"PingPong", "-multi", "1"}, Machine: "x86_64", System: "Linux",
		Release: "6.8.0", Version: "#1 SMP PREEMPT_DYNAMIC",
	}
}

func testRecords() []Record {
	ctx := testContext()
	return []Record{
		{Suite: "mpi1", Benchmark: "PingPong", Class: "single", Multi: -1, Group: -1, NProcs: 2,
			Groups: [][]int{{0, 1}}, Bytes: 0, Reps: 1000, TMin: 0.21, TMax: 0.23, TAvg: 0.22, Context: ctx},
		{Suite: "mpi1", Benchmark: "PingPong", Class: "single", Multi: 1, Group: 1, NProcs: 2,
			Groups: [][]int{{0, 2}, {1, 3}}, Map: []int{2, 2}, Bytes: 4194304, Reps: 10,
			TMin: 350.125, TMax: 351.5, TAvg: 350.8125, MBps: 11379.584, Context: ctx},
		{Suite: "mpi1", Benchmark: "Allreduce", Class: "collective", Multi: 0, Group: -1, NProcs: 4,
			Groups: [][]int{{0, 1, 2, 3}}, Bytes: 65536, Reps: 640, TMin: 12.5, TMax: 13.75, TAvg: 13.1,
			Check: true, Defects: 3, Mode: "aggregate", Context: ctx},
	}
}

func TestWriterReadRoundTrip(t *testing.T) {
	recs := testRecords()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	// One run: its header, then a line per record, which neither repeats
	// the context nor lists the groups their description gives.
	if n := strings.Count(buf.String(), "\n"); n != len(recs)+1 {
		t.Errorf("%d lines written for a header and %d records", n, len(recs))
	}
	if n := strings.Count(buf.String(), `"context"`); n != 1 {
		t.Errorf("the context written %d times, want once:\n%s", n, buf.String())
	}
	if strings.Contains(buf.String(), `"groups"`) {
		t.Errorf("groups listed where np, map and multi describe them:\n%s", buf.String())
	}
	got, warns, err := Read(&buf, "buf")
	if err != nil || len(warns) != 0 {
		t.Fatalf("Read: err %v, warnings %v", err, warns)
	}
	if !reflect.DeepEqual(got, recs) {
		t.Errorf("round trip changed the records:\ngot  %+v\nwant %+v", got, recs)
	}
}

func TestWriterFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	recs := testRecords()
	w := NewWriter(f)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
		// Every finished record is in the file (handed to the OS) before the next one starts.
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(data, []byte("\n")); n != i+2 { // the header first
			t.Errorf("after record %d the file has %d lines", i, n)
		}
	}
	f.Close()
	f, err = os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, warns, err := Read(f, p)
	if err != nil || len(warns) != 0 || !reflect.DeepEqual(got, recs) {
		t.Errorf("Read(%s): %d records, warnings %v, err %v", p, len(got), warns, err)
	}
}

func TestWriterError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Close() // writes now fail
	recs := testRecords()
	if err := NewWriter(f).Write(&recs[0]); err == nil {
		t.Error("Write to a closed file succeeded")
	}
}

func TestReadFieldNames(t *testing.T) {
	// A record as another tool would write it, by the documented keys.
	line := `{"suite":"mpi1","benchmark":"Sendrecv","class":"parallel","multi":-1,"group":-1,"np":4,` +
		`"groups":[[0,1,2,3]],"map":[2,2],"bytes":1024,"reps":1000,"t_min_us":1.5,"t_max_us":2.5,` +
		`"t_avg_us":2,"mbytes_per_sec":781.25,"check":false,"defects":0,"mode":"",` +
		`"context":{"tool":"t","procs":4,"hosts":["a"],"mpi":"mpich"}}`
	got, warns, err := Read(strings.NewReader(line), "x")
	if err != nil || len(warns) != 0 || len(got) != 1 {
		t.Fatalf("Read: %v %v %v", got, warns, err)
	}
	want := Record{Suite: "mpi1", Benchmark: "Sendrecv", Class: "parallel", Multi: -1, Group: -1, NProcs: 4,
		Groups: [][]int{{0, 1, 2, 3}}, Map: []int{2, 2}, Bytes: 1024, Reps: 1000, TMin: 1.5, TMax: 2.5, TAvg: 2,
		MBps: 781.25, Context: Context{Tool: "t", Procs: 4, Hosts: []string{"a"}, MPI: "mpich"}}
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("got  %+v\nwant %+v", got[0], want)
	}
}

func TestReadSkipsBadLines(t *testing.T) {
	recs := testRecords()
	var good bytes.Buffer
	w := NewWriter(&good)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.SplitAfter(strings.TrimSuffix(good.String(), "\n"), "\n")
	// line 1: the run's header; line 2: record 0; line 3: garbage; line
	// 4: blank; line 5: record 1; line 6: record 2; line 7: half of a
	// record, as a killed run leaves.
	text := lines[0] + lines[1] + "this is not json\n" + "\n" + lines[2] + lines[3] + "\n" + lines[3][:len(lines[3])/2]
	got, warns, err := Read(strings.NewReader(text), "results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, recs) {
		t.Errorf("kept %d records, want the %d good ones", len(got), len(recs))
	}
	if len(warns) != 2 {
		t.Fatalf("warnings %v, want 2", warns)
	}
	for i, line := range []int{3, 7} {
		w := warns[i]
		if w.File != "results.jsonl" || w.Line != line || w.Err == nil {
			t.Errorf("warning %d = %+v, want results.jsonl line %d", i, w, line)
		}
		if s := w.String(); !strings.HasPrefix(s, "results.jsonl:"+string(rune('0'+line))+": ") {
			t.Errorf("warning %d prints %q", i, s)
		}
	}
}

type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		r.n++
		return copy(p, "{\"suite\":\"mpi1\"}\n"), nil
	}
	return 0, errors.New("disk on fire")
}

func TestReadIOError(t *testing.T) {
	got, _, err := Read(&failingReader{}, "x")
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("Read error = %v, want the reader's error", err)
	}
	if len(got) != 1 || got[0].Suite != "mpi1" {
		t.Errorf("records before the error: %+v", got)
	}
}

// Collector keeps every record, writes each, and remembers only the first
// failed write while the run goes on.
func TestCollector(t *testing.T) {
	var wrote []string
	calls := 0
	c := Collector{Sink: func(r *Record) error {
		calls++
		if calls > 1 {
			return fmt.Errorf("disk full %d", calls)
		}
		wrote = append(wrote, r.Benchmark)
		return nil
	}}
	for _, b := range []string{"a", "b", "c"} {
		c.Add(&Record{Benchmark: b})
	}
	if len(c.Records) != 3 || c.Records[2].Benchmark != "c" || len(wrote) != 1 || calls != 3 {
		t.Errorf("kept %d records, wrote %v in %d calls; want 3 kept, [a] written, 3 calls", len(c.Records), wrote, calls)
	}
	if c.Err == nil || !strings.Contains(c.Err.Error(), "disk full 2") {
		t.Errorf("Err = %v, want the first failure (disk full 2)", c.Err)
	}
	var quiet Collector
	quiet.Add(&Record{})
	if len(quiet.Records) != 1 || quiet.Err != nil {
		t.Errorf("without a Sink: %d records, err %v", len(quiet.Records), quiet.Err)
	}
}

// A SKaMPI record always says whether ε was reached, its relative error
// (null when undefined) and its correction, and has no per-rank times;
// other suites keep their fields as tagged, t_*_us included.
func TestSkampiFields(t *testing.T) {
	rel := 0.02
	cases := []struct {
		r          Record
		has, hasNo []string
	}{
		{Record{Suite: "skampi", SkampiFigures: SkampiFigures{Reached: false}, Samples: []float64{1, 2}},
			[]string{`"reached":false`, `"rel_err":null`, `"correction_us":0`, `"samples_us":[1,2]`},
			[]string{"t_min_us", "t_max_us", "t_avg_us"}},
		{Record{Suite: "skampi", SkampiFigures: SkampiFigures{Reached: true, RelErr: &rel, Correction: 0.5}},
			[]string{`"reached":true`, `"rel_err":0.02`, `"correction_us":0.5`},
			[]string{"t_min_us", "samples_us"}},
		{Record{Suite: "mpi1", TMin: 0, TMax: 2},
			[]string{`"t_min_us":0`, `"t_max_us":2`, `"t_avg_us":0`},
			[]string{"reached", "rel_err", "correction_us"}},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := NewWriter(&b).Write(&c.r); err != nil {
			t.Fatal(err)
		}
		for _, k := range c.has {
			if !strings.Contains(b.String(), k) {
				t.Errorf("%s record without %s: %s", c.r.Suite, k, b.String())
			}
		}
		for _, k := range c.hasNo {
			if strings.Contains(b.String(), `"`+strings.Trim(k, `"`)+`"`) {
				t.Errorf("%s record with %s: %s", c.r.Suite, k, b.String())
			}
		}
		got, _, err := Read(&b, "x")
		if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], c.r) {
			t.Errorf("read back %+v, want %+v", got, c.r)
		}
	}
}
