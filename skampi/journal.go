package skampi

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"mpibench/result"
)

// Journal is the crash record of a run (the paper's section 3.3). The
// results file (-o) holds the records of finished measurements, written
// when a measurement finishes; the state file beside it (StatePath) holds
// one line per event: "start NAME" before a measurement begins and
// "done NAME N" after its N records are in the results file. A
// measurement is finished when its last event is "done" with N records
// present; one whose last event is "start" crashed the run.
type Journal struct {
	out, state *os.File
	w          *result.Writer
}

// Resumed is what a journal said about an earlier run.
type Resumed struct {
	Done     []string        // finished measurements, in configuration order: skipped
	Crashed  []string        // started and not finished, in the order they started: retried last
	Records  []result.Record // the finished measurements' records, kept in the file
	Warnings []result.Warning
}

// StatePath is the state file of the results file path.
func StatePath(path string) string { return path + ".state" }

// CreateJournal starts a new journal, emptying both files.
func CreateJournal(path string) (*Journal, error) {
	return openJournal(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY)
}

func openJournal(path string, flag int) (*Journal, error) {
	out, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return nil, err
	}
	state, err := os.OpenFile(StatePath(path), flag, 0o644)
	if err != nil {
		out.Close()
		return nil, err
	}
	return &Journal{out: out, state: state, w: result.NewWriter(out)}, nil
}

// ResumeJournal reads the journal of an earlier run of cfg (missing files
// are an empty journal), rewrites both files to hold only the finished
// measurements (dropping a half-written line and the points of a crashed
// measurement, which is measured again in full) and opens them for
// appending.
func ResumeJournal(path string, cfg *Config) (*Journal, *Resumed, error) {
	r, err := readJournal(path, cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := rewrite(path, r); err != nil {
		return nil, nil, err
	}
	j, err := openJournal(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY)
	return j, r, err
}

// readJournal works out what was finished and what crashed.
func readJournal(path string, cfg *Config) (*Resumed, error) {
	r := &Resumed{}
	var recs []result.Record
	if f, err := os.Open(path); err == nil {
		recs, r.Warnings, err = result.Read(f, path)
		f.Close()
		if err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	last, order, err := readState(StatePath(path))
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	for _, rec := range recs {
		if rec.Suite == "skampi" {
			count[rec.Benchmark]++
		}
	}
	for _, m := range cfg.Measurements {
		if ev, ok := last[m.Name]; ok && ev.done && ev.n == count[m.Name] && ev.n > 0 {
			r.Done = append(r.Done, m.Name)
		}
	}
	for _, name := range order {
		if ev := last[name]; !ev.done && cfg.Find(name) != nil {
			r.Crashed = append(r.Crashed, name)
		}
	}
	for _, rec := range recs {
		if rec.Suite == "skampi" && slices.Contains(r.Done, rec.Benchmark) {
			r.Records = append(r.Records, rec)
		}
	}
	return r, nil
}

// event is the last state line of a measurement.
type event struct {
	done bool
	n    int
	pos  int
}

// readState reads the state file: the last event of every measurement,
// and the measurements in the order of their last event. Lines that do
// not parse (a half-written last line) are ignored.
func readState(path string) (map[string]event, []string, error) {
	last := map[string]event{}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return last, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for pos := 0; sc.Scan(); pos++ {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "start":
			last[f[1]] = event{pos: pos}
		case len(f) == 3 && f[0] == "done":
			if n, err := strconv.Atoi(f[2]); err == nil {
				last[f[1]] = event{done: true, n: n, pos: pos}
			}
		}
	}
	var order []string
	for name := range last {
		order = append(order, name)
	}
	slices.SortFunc(order, func(a, b string) int { return last[a].pos - last[b].pos })
	return last, order, sc.Err()
}

// rewrite replaces both files by what r keeps: the finished records and
// their "done" lines, then "start" lines of the crashed measurements so
// that a crash before they are retried still remembers them.
func rewrite(path string, r *Resumed) error {
	var recs, state strings.Builder
	w := result.NewWriter(&recs)
	count := map[string]int{}
	for i := range r.Records {
		if err := w.Write(&r.Records[i]); err != nil {
			return err
		}
		count[r.Records[i].Benchmark]++
	}
	for _, name := range r.Done {
		fmt.Fprintf(&state, "done %s %d\n", name, count[name])
	}
	for _, name := range r.Crashed {
		fmt.Fprintf(&state, "start %s\n", name)
	}
	if err := replace(path, recs.String()); err != nil {
		return err
	}
	return replace(StatePath(path), state.String())
}

// replace writes a file through a temporary one and a rename, so that a
// crash now leaves the old file or the new one, never half of either.
func replace(path, text string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	if _, err := tmp.WriteString(text); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Start notes that a measurement begins.
func (j *Journal) Start(name string) error {
	_, err := fmt.Fprintf(j.state, "start %s\n", name)
	return err
}

// Finish appends the records of a finished measurement, then notes it
// done: a crash between the two leaves it unfinished, to be run again.
func (j *Journal) Finish(name string, recs []result.Record) error {
	for i := range recs {
		if err := j.w.Write(&recs[i]); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(j.state, "done %s %d\n", name, len(recs))
	return err
}

// Close closes both files.
func (j *Journal) Close() error {
	err := j.out.Close()
	if err2 := j.state.Close(); err == nil {
		err = err2
	}
	return err
}

// Order is the run order of cfg after r (nil r: a fresh run): the
// measurements neither finished nor crashed, in configuration order, then
// the crashed ones in the order they crashed.
func Order(cfg *Config, r *Resumed) []string {
	var names []string
	for _, m := range cfg.Measurements {
		if r == nil || (!slices.Contains(r.Done, m.Name) && !slices.Contains(r.Crashed, m.Name)) {
			names = append(names, m.Name)
		}
	}
	if r != nil {
		names = append(names, r.Crashed...)
	}
	return names
}
