// Package journal keeps the crash record of a run, so that a run that was
// killed, interrupted or ended by the watchdog can be resumed without
// measuring again what it finished (SKaMPI's section 3.3, for every
// suite).
//
// The results file holds the Records of finished cases, written when a
// case finishes. The state file beside it (StatePath) holds one line per
// event: "start KEY" before a case begins, "done KEY N" after its N
// Records are in the results file, and "hung KEY" when the watchdog ended
// the run in it. A case is finished when its last event is "done" and N
// Records with that Case key are present; a case whose last event is
// "start" crashed the run.
package journal

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"mpibench/analysis/result"
	"mpibench/internal/safefile"
)

// Journal writes a results file and its state file. Its methods may be
// called from the watchdog's goroutine while the measuring one is blocked.
type Journal struct {
	mu         sync.Mutex
	out, state *os.File
	w          *result.Writer
	// A journal made by Create empties its files only when it first
	// writes, so that a run refused after the files were opened (the
	// memory check) leaves an earlier run's results alone; files it made
	// itself and never wrote are removed by Close.
	empty   bool // not yet emptied
	made    bool // both files were created by this journal
	written bool
	// streamed counts the Records of the case being measured that Stream
	// wrote before its Finish.
	streamed map[string]int
}

// Resumed is what the journal of an earlier run said.
type Resumed struct {
	Done     []string        // finished cases, in the order they finished
	Crashed  []string        // started and neither finished nor hung, in the order they started
	Hung     []string        // cases the watchdog ended the run in
	Records  []result.Record // the finished cases' Records, kept in the file
	Warnings []result.Warning

	// An index of the above, built on first use: a default b_eff run has
	// thousands of cases, too many to search lists for each.
	once   sync.Once
	done   map[string]bool
	hung   map[string]bool
	byCase map[string][]int // indexes into Records
}

func (r *Resumed) index() {
	r.once.Do(func() {
		r.done, r.hung, r.byCase = map[string]bool{}, map[string]bool{}, map[string][]int{}
		for _, k := range r.Done {
			r.done[k] = true
		}
		for _, k := range r.Hung {
			r.hung[k] = true
		}
		for i, rec := range r.Records {
			r.byCase[rec.Case] = append(r.byCase[rec.Case], i)
		}
	})
}

// IsDone tells whether the case key finished in the earlier run.
func (r *Resumed) IsDone(key string) bool {
	if r == nil {
		return false
	}
	r.index()
	return r.done[key]
}

// IsHung tells whether the watchdog ended the earlier run in case key.
func (r *Resumed) IsHung(key string) bool {
	if r == nil {
		return false
	}
	r.index()
	return r.hung[key]
}

// Stored returns the Records case key left, in file order.
func (r *Resumed) Stored(key string) []result.Record {
	if r == nil {
		return nil
	}
	r.index()
	var out []result.Record
	for _, i := range r.byCase[key] {
		out = append(out, r.Records[i])
	}
	return out
}

// StatePath is the state file of the results file path.
func StatePath(path string) string { return path + ".state" }

// Create starts a new journal: both files are emptied when the first
// event is written.
func Create(path string) (*Journal, error) {
	_, err1 := os.Lstat(path)
	_, err2 := os.Lstat(StatePath(path))
	j, err := open(path)
	if err != nil {
		return nil, err
	}
	j.empty = true
	j.made = errors.Is(err1, fs.ErrNotExist) && errors.Is(err2, fs.ErrNotExist)
	return j, nil
}

// open opens both files for appending, after checking both, so that a
// refused state file leaves the results file as it was.
func open(path string) (*Journal, error) {
	for _, p := range []string{path, StatePath(path)} {
		if err := safefile.Check(p); err != nil {
			return nil, err
		}
	}
	out, err := lock(path)
	if err != nil {
		return nil, err
	}
	state, err := lock(StatePath(path))
	if err != nil {
		_ = out.Close() // nothing written yet; the lock's error is the one to tell
		return nil, err
	}
	return &Journal{out: out, state: state, w: result.NewWriter(out)}, nil
}

// lock opens path for appending and locks it: two runs writing one
// results file would interleave their cases. Both files of a journal are
// locked, so that a run cannot take another's state file for its results
// file or the other way round. The lock goes with the
// process, so a killed run leaves none behind.
func lock(path string) (*os.File, error) {
	f, err := safefile.Append(path)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close() // nothing written; the lock's error is the one to tell
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is being written by another run", path)
		}
		return nil, fmt.Errorf("%s: lock: %w", path, err)
	}
	return f, nil
}

// begin empties a new journal's files before its first event; the caller
// holds j.mu.
func (j *Journal) begin() error {
	j.written = true
	if !j.empty {
		return nil
	}
	j.empty = false
	if err := j.out.Truncate(0); err != nil {
		return err
	}
	return j.state.Truncate(0)
}

// Resume reads the journal of an earlier run (missing files are an empty
// journal), rewrites both files to hold only the finished cases (dropping
// a half-written line and the Records of a crashed case, which is measured
// again in full) and opens them for appending.
// check, when not nil, vets what was read before anything is rewritten:
// its error leaves both files as they were.
func Resume(path string, check func(*Resumed) error) (*Journal, *Resumed, error) {
	for _, p := range []string{path, StatePath(path)} {
		if err := safefile.Check(p); err != nil {
			return nil, nil, err
		}
	}
	// The file as it is now stays locked until the rewritten one is
	// open and locked in its place.
	old, err := lock(path)
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = old.Close() }() // a lock only: nothing written through it
	oldState, err := lock(StatePath(path))
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = oldState.Close() }()
	r, err := read(path)
	if err != nil {
		return nil, nil, err
	}
	if check != nil {
		if err := check(r); err != nil {
			return nil, nil, err
		}
	}
	if err := rewrite(path, r); err != nil {
		return nil, nil, err
	}
	j, err := open(path)
	return j, r, err
}

// read works out what was finished, what crashed and what hung.
func read(path string) (*Resumed, error) {
	r := &Resumed{}
	var recs []result.Record
	if f, err := os.Open(path); err == nil {
		recs, r.Warnings, err = result.Read(f, path)
		_ = f.Close() // only read
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
	if err := accounted(path, recs, last); err != nil {
		return nil, err
	}
	count := map[string]int{}
	for _, rec := range recs {
		count[rec.Case]++
	}
	for _, key := range order {
		switch ev := last[key]; {
		case ev.kind == "done" && ev.n == count[key] && ev.n > 0:
			r.Done = append(r.Done, key)
		case ev.kind == "hung":
			r.Hung = append(r.Hung, key)
		case ev.kind == "start":
			r.Crashed = append(r.Crashed, key)
		}
		// Done with Records missing (the results file lost them): neither
		// finished nor crashed, measured again in its place.
	}
	done := map[string]bool{}
	for _, key := range r.Done {
		done[key] = true
	}
	for _, rec := range recs {
		if done[rec.Case] {
			r.Records = append(r.Records, rec)
		}
	}
	return r, nil
}

// accounted refuses to resume a results file whose records its state file
// does not know: without the state file (lost, unreadable, never made:
// the file was written by something else), or records of cases the state
// file never named. Resuming would drop them. Records without a case (the
// summaries computed from the others) are dropped and computed again.
func accounted(path string, recs []result.Record, last map[string]event) error {
	stray := 0
	for _, rec := range recs {
		if _, ok := last[rec.Case]; rec.Case != "" && !ok {
			stray++
		}
	}
	switch {
	case len(recs) > 0 && len(last) == 0:
		return fmt.Errorf("%s holds %d records but its journal %s is missing or unreadable; "+
			"resuming would drop them (run without -resume to measure again into a new file)",
			path, len(recs), StatePath(path))
	case stray > 0:
		return fmt.Errorf("%s holds %d records of cases its journal %s does not name (a file of another run?); "+
			"resuming would drop them", path, stray, StatePath(path))
	}
	return nil
}

// event is the last state line of a case.
type event struct {
	kind string // start, done, hung
	n    int
	pos  int
}

// readState reads the state file: the last event of every case, and the
// cases in the order of their last event. Lines that do not parse (a
// half-written last line) are ignored.
func readState(path string) (map[string]event, []string, error) {
	last := map[string]event{}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return last, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = f.Close() }() // only read
	sc := bufio.NewScanner(f)
	for pos := 0; sc.Scan(); pos++ {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && (f[0] == "start" || f[0] == "hung"):
			last[f[1]] = event{kind: f[0], pos: pos}
		case len(f) == 3 && f[0] == "done":
			if n, err := strconv.Atoi(f[2]); err == nil {
				last[f[1]] = event{kind: "done", n: n, pos: pos}
			}
		}
	}
	var order []string
	for key := range last {
		order = append(order, key)
	}
	slices.SortFunc(order, func(a, b string) int { return last[a].pos - last[b].pos })
	return last, order, sc.Err()
}

// rewrite replaces both files by what r keeps: the finished Records and
// their "done" lines, then the hung cases and the "start" lines of the
// crashed ones, so that a crash before they are measured again still
// remembers them.
func rewrite(path string, r *Resumed) error {
	var recs, state strings.Builder
	w := result.NewWriter(&recs)
	count := map[string]int{}
	for i := range r.Records {
		if err := w.Write(&r.Records[i]); err != nil {
			return err
		}
		count[r.Records[i].Case]++
	}
	for _, key := range r.Done {
		fmt.Fprintf(&state, "done %s %d\n", key, count[key])
	}
	for _, key := range r.Hung {
		fmt.Fprintf(&state, "hung %s\n", key)
	}
	for _, key := range r.Crashed {
		fmt.Fprintf(&state, "start %s\n", key)
	}
	if err := safefile.WriteFile(path, []byte(recs.String())); err != nil {
		return err
	}
	return safefile.WriteFile(StatePath(path), []byte(state.String()))
}

// checkKey refuses a key the state file could not hold.
func checkKey(key string) error {
	if key == "" || strings.ContainsFunc(key, func(r rune) bool { return r <= ' ' }) {
		return fmt.Errorf("journal: case key %q is empty or has spaces", key)
	}
	return nil
}

// Start notes that case key begins.
func (j *Journal) Start(key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.begin(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(j.state, "start %s\n", key)
	return err
}

// Finish appends the Records of the finished case key, marked with the
// key, then notes it done with them and those Stream wrote: a crash
// between the two leaves it unfinished, to be measured again.
func (j *Journal) Finish(key string, recs []*result.Record) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.begin(); err != nil {
		return err
	}
	for _, r := range recs {
		r.Case = key
		if err := j.w.Write(r); err != nil {
			return err
		}
	}
	n := len(recs) + j.streamed[key]
	delete(j.streamed, key)
	_, err := fmt.Fprintf(j.state, "done %s %d\n", key, n)
	return err
}

// Stream appends a Record of case key while the case is measured, for a
// case whose records are too many to hold until Finish (links' P rows at
// thousands of ranks). The case is done only when Finish notes it: a
// crash before leaves the streamed records to be dropped by -resume.
func (j *Journal) Stream(key string, r *result.Record) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.begin(); err != nil {
		return err
	}
	r.Case = key
	if err := j.w.Write(r); err != nil {
		return err
	}
	if j.streamed == nil {
		j.streamed = map[string]int{}
	}
	j.streamed[key]++
	return nil
}

// Hung notes that the watchdog ends the run in case key, and syncs the
// state file: the job is about to be aborted.
func (j *Journal) Hung(key string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.begin(); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(j.state, "hung %s\n", key); err != nil {
		return err
	}
	return j.state.Sync()
}

// Close closes both files, and removes them when this journal made them
// and never wrote (the run was refused before its first case).
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	err := j.out.Close()
	if err2 := j.state.Close(); err == nil {
		err = err2
	}
	if j.made && !j.written {
		err = errors.Join(err, j.remove())
	}
	return err
}

// remove removes both files; an error names what stays on the disk.
func (j *Journal) remove() error {
	return errors.Join(os.Remove(j.out.Name()), os.Remove(j.state.Name()))
}

// Discard removes both files when this journal made them and has not
// written yet: a run interrupted before its first case leaves nothing.
// It runs in the signal handler, which then ends the process.
func (j *Journal) Discard() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.made && !j.written {
		// Best effort: the signal ends the process, and its message is
		// the one to tell.
		_ = j.remove()
	}
}

// Path of the results file, for messages.
func (j *Journal) Path() string { return j.out.Name() }

// Write appends a Record that belongs to no measured case, such as a
// summary computed from the others. A resumed run drops it and computes
// it again.
func (j *Journal) Write(r *result.Record) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.begin(); err != nil {
		return err
	}
	return j.w.Write(r)
}
