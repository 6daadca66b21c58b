package result

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// decodeLines are lines the fast parser takes and lines it must leave to
// encoding/json, each with the record encoding/json makes of it.
func decodeLines() []string {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, r := range testRecords() {
		w.Write(&r)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	return append(lines,
		`{"suite":"mpi1","groups":[],"map":[2,1],"context":{"args":[],"hosts":["a","b"],"procs":2}}`,
		`{"suite":"skampi","stats":{"n":3,"mean":1.5e-3,"min":-0,"max":2E+2},"rel_err":null,"samples_us":[1,2.5,3]}`,
		`{"stats":{"n":1,"mean":2},"stats":{"n":3}}`,
		`{"suite":"a","suite":"b","groups":[[1]],"groups":[]}`,
		`{"Suite":"upper case key"}`, `{"suite":"esc\"aped"}`, `{"suite":"ünïcode"}`, "{\"suite\":\"\xff\"}",
		`{"suite":null}`, `{"bytes":1e2}`, `{"bytes":1.0}`, `{"bytes":01}`, `{"bytes":-0}`, `{"t_max_us":1e400}`,
		`{"t_max_us":0x10}`, `{"t_max_us":Inf}`, `{"check":truex}`, `{"check":false}`, `{"unknown":{"a":[1]}}`,
		`{"beff":{"beff":1}}`, `{"seed":18446744073709551615}`, `{"seed":-1}`, `{"io_bytes":9007199254740993}`,
		`{"rel_err":0.25}`, `{"osu":{"tail":[]},"osu":{"datatype":"x"}}`, `{"osu":null}`, `{"osu":{"tail":[{"p":1}],"x":1}}`,
		`{"sync":"window","window_s":1e-3,"clock_error_s":2e-6,"valid_reps":9,"invalid_reps":0,"start_lag_s":1e-7}`,
		`{"suite":"mpi1","bytes":4194304,"skipped":"memory","need_bytes":33554464,"limit_bytes":1073741824}`,
		`{"suite":"mpi1","reps":4,"cut":"time","reps_asked":1000}`, `{"suite":"beffio","cut":"disk"}`,
		`{"suite":"nbc","overlap":{"t_ovrl_us":1.5,"t_pure_us":1,"t_cpu_us":0.5,"overlap_pct":-3,"cpu_mflops":9}}`,
		`{"skampi":{"param":"bytes","x":4,"reached":false,"rel_err":null,"correction_us":0},"suite":"skampi"}`,
		`{"t_ovrl_us":1,"overlap":{"t_ovrl_us":2}}`, `{"overlap":{"t_ovrl_us":2},"t_ovrl_us":1}`, `{"overlap":{"bytes":1}}`,
		`{"overlap":null}`, `{"overlap":{}}`, `{"overlap":{"t_ovrl_us":1},"overlap":{"t_pure_us":2}}`, `{"starts":{"invalid_reps":0}}`,
		`{"b_eff":{"beff":{"b_eff":1}}}`, `{"b_eff":{"rep":2,"seed":18446744073709551615}}`, `{"b_eff_io":{"io_bytes":9007199254740993}}`,
		`{"violation":{"p_value":0.01,"kind":"pattern"},"skampi":{"stop":"epsilon"},"starts":{"sync":"window"}}`,
		`{"skampi":{"rel_err":1},"rel_err":null}`, `{"skampi":{"Param":"upper"}}`, `{"starts":{"sync":"a"},"reached":true}`,
		`{"invalid_reps":null}`, `{"invalid_reps":3,"invalid_reps":1}`, `{} {}`, `{"suite":"a",}`, `{`, ``, `[]`, ` { "suite" : "spaced" , "np" : 4 } `)
}

// TestDecodeSame holds the fast parser to encoding/json: the same record
// or, where encoding/json fails, the same error.
func TestDecodeSame(t *testing.T) {
	fast := 0
	for _, line := range decodeLines() {
		decodeCompare(t, line)
		var r Record
		p := parser{b: []byte(line), prev: &Record{}}
		if p.record(&r) {
			fast++
		}
	}
	if fast < len(testRecords()) {
		t.Errorf("the fast parser took %d lines, want at least the %d written records", fast, len(testRecords()))
	}
}

func decodeCompare(t *testing.T, line string) {
	t.Helper()
	var want, got Record
	werr := json.Unmarshal([]byte(line), &want)
	gerr := decodeRecord([]byte(line), &got, &Record{Suite: "mpi1", Context: Context{Host: "a", Args: []string{"x", "y"}}})
	if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
		t.Fatalf("%s: error %v, encoding/json %v", line, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", line, got, want)
	}
}

func FuzzDecode(f *testing.F) {
	for _, line := range decodeLines() {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) { decodeCompare(t, line) })
}
