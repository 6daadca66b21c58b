package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// Record is a JSON Lines record, decoded with the field names the format
// promises.
type Record struct {
	Suite     string  `json:"suite"`
	Benchmark string  `json:"benchmark"`
	Class     string  `json:"class"`
	Multi     int     `json:"multi"`
	Group     int     `json:"group"`
	NP        int     `json:"np"`
	Groups    [][]int `json:"groups"`
	Map       []int   `json:"map"`
	Bytes     int     `json:"bytes"`
	Reps      int     `json:"reps"`
	TimeLimit float64 `json:"time_limit_s"`
	TMin      float64 `json:"t_min_us"`
	TMax      float64 `json:"t_max_us"`
	TAvg      float64 `json:"t_avg_us"`
	MBps      float64 `json:"mbytes_per_sec"`
	Check     bool    `json:"check"`
	Defects   float64 `json:"defects"`
	Mode      string  `json:"mode"`
	Case      string  `json:"case"`
	CountMode string  `json:"count_mode"`
	Cut       string  `json:"cut"`
	RepsAsked int     `json:"reps_asked"`
	Context   struct {
		Tool  string   `json:"tool"`
		MPI   string   `json:"mpi"`
		Procs int      `json:"procs"`
		Args  []string `json:"args"`
	} `json:"context"`
}

func (r Record) String() string {
	return fmt.Sprintf("%s np=%d groups=%v group=%d bytes=%d reps=%d t=%g/%g/%g mbps=%g defects=%g",
		r.Benchmark, r.NP, r.Groups, r.Group, r.Bytes, r.Reps, r.TMin, r.TAvg, r.TMax, r.MBps, r.Defects)
}

// ReadRecords reads a -json file; one that holds no record fails the
// test.
func ReadRecords(t *testing.T, path string) []Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("-json file: %v", err)
	}
	defer func() { _ = f.Close() }() // read only
	var recs []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var runs runHeaders
	for n := 1; sc.Scan(); n++ {
		line, ok := runs.v1(sc.Text())
		if !ok {
			continue
		}
		var r Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s:%d: %v: %q", path, n, err, line)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: no records", path)
	}
	return recs
}

// ReadJSONL decodes every line of a JSON Lines file into a T; a line that
// does not decode fails the test.
func ReadJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []T
	var runs runHeaders
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		line, ok := runs.v1(line)
		if !ok {
			continue
		}
		var r T
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		recs = append(recs, r)
	}
	return recs
}

// runHeaders turns the lines of a results file of records version 2 or 3
// into whole records, which the tests decode: with its run's context and
// its groups on the line, as version 1 wrote them, and a suite's figures
// in version 3's objects (result.Record.MarshalJSON). The product's reader (result.Read, whose
// rules the files of version 1 in analysis/result/testdata/v1 hold)
// fills them in; the tests then check the record as before.
type runHeaders map[int]string

// v1 is line as version 1 writes it, and false for a run header (not a
// record). A line that does not decode (half a line) stays as it is.
func (h *runHeaders) v1(line string) (string, bool) {
	var head struct {
		Schema int `json:"schema"`
		Run    int `json:"run"`
	}
	if json.Unmarshal([]byte(line), &head) != nil || head.Run == 0 {
		return line, true
	}
	if *h == nil {
		*h = runHeaders{}
	}
	if head.Schema != 0 {
		(*h)[head.Run] = line
		return "", false
	}
	recs, warns, err := result.Read(strings.NewReader((*h)[head.Run]+"\n"+line), "line")
	if err != nil || len(warns) > 0 || len(recs) != 1 {
		return line, true
	}
	b, err := json.Marshal(recs[0])
	if err != nil {
		return line, true
	}
	return string(b), true
}

// Lengths writes a -msglen file of the lengths and returns its path.
func Lengths(t *testing.T, lens ...int) string {
	t.Helper()
	var b strings.Builder
	for _, x := range lens {
		fmt.Fprintln(&b, x)
	}
	p := filepath.Join(t.TempDir(), "lengths.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// AssertOncePerCase requires the results file out to hold one record of
// each of its cases, and its journal as many done cases.
func AssertOncePerCase(t *testing.T, out string, cases int) {
	t.Helper()
	recs := ReadRecords(t, out)
	seen := map[string]int{}
	for _, r := range recs {
		seen[fmt.Sprintf("%s/np%d/%s/%d/%v", r.Benchmark, r.NP, r.Mode, r.Bytes, r.Groups)]++
	}
	for c, n := range seen {
		if n != 1 {
			t.Errorf("%s: %d records", c, n)
		}
	}
	if len(recs) != cases || len(seen) != cases {
		t.Errorf("%d records of %d cases, want %d", len(recs), len(seen), cases)
	}
	data, _ := os.ReadFile(out + ".state")
	if n := strings.Count(string(data), "done "); n != cases {
		t.Errorf("%d cases done in the journal, want %d:\n%s", n, cases, data)
	}
}

// RecordLines are the lines of a results file's text as records version
// 1 writes them (runHeaders): the run headers dropped, every record whole.
func RecordLines(text string) []string {
	var runs runHeaders
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if line, ok := runs.v1(line); ok {
			out = append(out, line)
		}
	}
	return out
}

// IsRunHeader says whether a line of a results file is a run header of
// records version 2 or 3 rather than a record.
func IsRunHeader(line string) bool {
	var head struct {
		Schema int `json:"schema"`
	}
	return json.Unmarshal([]byte(line), &head) == nil && head.Schema != 0
}

// ReadResults reads a results file as the readers do (every records
// version), failing the test on an error or any line it cannot read.
func ReadResults(t *testing.T, path string) []result.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // only read
	recs, warns, err := result.Read(f, path)
	if err != nil || len(warns) > 0 {
		t.Fatalf("%s: %v %v", path, err, warns)
	}
	return recs
}
