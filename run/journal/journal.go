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
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
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
	// failed is the error of a write to the results file that failed: the
	// file was cut back to its last whole record, and the Writer, which
	// believes the run's header written, must not write after it.
	failed error
	// base is the size of the results file an appending journal found
	// (Append): its bytes stay as they are, and the state file's first
	// line says where this run's begin. 0 for the others.
	base int64
	// streamed counts the Records of the case being measured that Stream
	// wrote before its Finish.
	streamed map[string]int
}

// Resumed is what the journal of an earlier run said. On rank 0 it knows
// where the finished cases' Records stand in the results file, and reads
// them from there when asked (Stored): it holds O(cases), never the
// Records.
type Resumed struct {
	Done     []string // finished cases, in the order they finished
	Crashed  []string // started and neither finished nor hung, in the order they started
	Hung     []string // cases the watchdog ended the run in
	Kept     int      // the finished cases' Records, kept in the file
	Warnings []result.Warning
	// Context is the context of the first Record kept (file order), nil
	// when none is: the run the file holds, for the check of Resume.
	Context *result.Context

	path  string             // the results file
	heads []span             // the run headers kept Records refer to
	cases map[string]*stored // the finished cases' lines in the file

	// An index of the above, built on first use: a default b_eff run has
	// thousands of cases, too many to search lists for each.
	once sync.Once
	done map[string]bool
	hung map[string]bool
}

// span is a run of consecutive lines of one case in the results file, or
// a header line.
type span struct {
	off, n int64
	head   int // the header of its run, in Resumed.heads; -1: lines of version 1, which have none
}

// stored is where a case's Records stand, and how many there are.
type stored struct {
	n     int
	spans []span
}

func (r *Resumed) index() {
	r.once.Do(func() {
		r.done, r.hung = map[string]bool{}, map[string]bool{}
		for _, k := range r.Done {
			r.done[k] = true
		}
		for _, k := range r.Hung {
			r.hung[k] = true
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

// Stored reads the Records case key left, in file order, from the results
// file. On ranks other than 0 (which know the keys only) and for a case
// that did not finish there are none.
func (r *Resumed) Stored(key string) ([]result.Record, error) {
	if r == nil || r.cases[key] == nil {
		return nil, nil
	}
	c := r.cases[key]
	f, err := os.Open(r.path)
	if err != nil {
		return nil, fmt.Errorf("-resume: reading the kept records of %s: %w", key, err)
	}
	defer func() { _ = f.Close() }() // only read
	out := make([]result.Record, 0, c.n)
	err = decode(f, r.path, r.heads, c.spans, func(rec *result.Record) error {
		out = append(out, *rec)
		return nil
	})
	if err == nil && len(out) != c.n {
		err = fmt.Errorf("%d records, %d when resumed", len(out), c.n)
	}
	if err != nil {
		return nil, fmt.Errorf("-resume: reading the kept records of %s from %s: %w", key, r.path, err)
	}
	return out, nil
}

// errEnough stops a decode that has what it needs.
var errEnough = errors.New("enough")

// decode hands fn the Records of spans, read from f with the headers
// they refer to. They were read once already: a line that no longer
// parses means the file changed since.
func decode(f io.ReaderAt, name string, heads []span, spans []span, fn func(*result.Record) error) error {
	var parts []io.Reader
	head := -1
	for _, s := range spans {
		if s.head >= 0 && s.head != head {
			h := heads[s.head]
			parts = append(parts, io.NewSectionReader(f, h.off, h.n), strings.NewReader("\n"))
			head = s.head
		}
		parts = append(parts, io.NewSectionReader(f, s.off, s.n), strings.NewReader("\n"))
	}
	warns, err := result.ScanLines(io.MultiReader(parts...), name, func(rec *result.Record, _ *result.Line) error {
		return fn(rec)
	})
	if errors.Is(err, errEnough) {
		return nil
	}
	if err == nil && len(warns) > 0 {
		err = fmt.Errorf("the file changed since it was resumed: %v", warns[0].Err)
	}
	return err
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
// holds j.mu. An appending journal empties only its state file, and
// starts it with the line that says where this run begins.
func (j *Journal) begin() error {
	j.written = true
	if !j.empty {
		return nil
	}
	j.empty = false
	if j.base > 0 {
		if err := j.state.Truncate(0); err != nil {
			return err
		}
		_, err := fmt.Fprintf(j.state, "base %d\n", j.base)
		return err
	}
	if err := j.out.Truncate(0); err != nil {
		return err
	}
	return j.state.Truncate(0)
}

// Append starts a journal that adds this run to the results file path
// after the runs it holds, which stay byte for byte (-append; issue 26:
// several launches of one side into one file). The file must end with a
// whole line, every line must be a record or header mpibench reads, and
// this run's headers are numbered after its runs. A -resume of the run
// keeps the earlier bytes as they are and resumes this run's.
func Append(path string) (*Journal, error) {
	j, err := open(path)
	if err != nil {
		return nil, err
	}
	base, maxRun, err := appendable(path)
	if err != nil {
		_ = j.Close() // nothing written: the file's fault is the one to tell
		return nil, err
	}
	j.empty, j.base = true, base
	j.w = result.NewWriterAfter(j.out, maxRun)
	if base == 0 {
		j.made = false // a new or empty file: as Create, but never removed
	}
	return j, nil
}

// appendable checks the results file an appending run adds to, and
// returns its size and the highest run its headers give.
func appendable(path string) (int64, int, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = f.Close() }() // only read
	maxRun := 0
	warns, err := result.ScanLines(f, path, func(_ *result.Record, ln *result.Line) error {
		maxRun = max(maxRun, ln.Run)
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	if len(warns) > 0 {
		return 0, 0, fmt.Errorf("-append: %v; mpibench adds a run only to a file it can read whole "+
			"(-resume repairs a run's own file)", warns[0])
	}
	size, lastNL, err := tail(f)
	if err == nil && !lastNL {
		err = fmt.Errorf("-append: %s does not end with a line end (a partial record?); -resume repairs a run's own file", path)
	}
	return size, maxRun, err
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
	r, rd, err := read(path)
	if err != nil {
		return nil, nil, err
	}
	if check != nil {
		if err := check(r); err != nil {
			return nil, nil, err
		}
	}
	if err := rewrite(path, r, rd); err != nil {
		return nil, nil, err
	}
	j, err := open(path)
	return j, r, err
}

// reading is what read learnt for rewrite besides the Resumed.
type reading struct {
	size   int64 // of the results file
	base   int64 // where this run began (Append): the bytes before stay as they are
	lastNL bool  // its last byte is a line end (or it is empty)
	maxRun int   // the highest run a kept record refers to
}

// read works out what was finished, what crashed and what hung, in one
// pass over the results file that keeps, of each case, its count and
// where its lines stand, never its Records.
func read(path string) (*Resumed, *reading, error) {
	r := &Resumed{path: path}
	rd := &reading{lastNL: true}
	last, order, base, err := readState(StatePath(path))
	if err != nil {
		return nil, nil, err
	}
	rd.base = base
	all := map[string]*stored{} // every case in the file, with the lines of those the state file says done
	total := 0
	headAt := map[int64]int{} // index in r.heads by offset
	if f, err := os.Open(path); err == nil {
		if err := skipBase(f, path, base); err != nil {
			_ = f.Close() // only read
			return nil, nil, err
		}
		r.Warnings, err = result.ScanLines(f, path, func(rec *result.Record, ln *result.Line) error {
			// Where the line stands in the file, not after the base.
			ln.Off += base
			if ln.Run != 0 {
				ln.Head.Off += base
			}
			total++
			c := all[rec.Case]
			if c == nil {
				c = &stored{}
				all[rec.Case] = c
			}
			c.n++
			if ev, ok := last[rec.Case]; !ok || ev.kind != "done" {
				return nil // not kept: only counted
			}
			head := -1
			if ln.Run != 0 {
				rd.maxRun = max(rd.maxRun, ln.Run)
				h, ok := headAt[ln.Head.Off]
				if !ok {
					h = len(r.heads)
					r.heads = append(r.heads, span{off: ln.Head.Off, n: ln.Head.Len, head: -1})
					headAt[ln.Head.Off] = h
				}
				head = h
			}
			c.spans = extend(c.spans, span{off: ln.Off, n: ln.Len, head: head})
			return nil
		})
		if err == nil {
			rd.size, rd.lastNL, err = tail(f)
		}
		_ = f.Close() // only read
		if err != nil {
			return nil, nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	if err := accounted(path, total, all, last); err != nil {
		return nil, nil, err
	}
	count := func(key string) int {
		if c := all[key]; c != nil {
			return c.n
		}
		return 0
	}
	r.cases = map[string]*stored{}
	for _, key := range order {
		switch ev := last[key]; {
		case ev.kind == "done" && ev.n == count(key) && ev.n > 0:
			r.Done = append(r.Done, key)
			r.cases[key] = all[key]
			r.Kept += ev.n
		case ev.kind == "hung":
			r.Hung = append(r.Hung, key)
		case ev.kind == "start":
			r.Crashed = append(r.Crashed, key)
		}
		// Done with Records missing (the results file lost them): neither
		// finished nor crashed, measured again in its place.
	}
	if err := r.first(); err != nil {
		return nil, nil, err
	}
	return r, rd, nil
}

// skipBase moves f past the runs an appending run found (Append), which
// the journal neither reads nor changes.
func skipBase(f *os.File, path string, base int64) error {
	if base == 0 {
		return nil
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() < base {
		return fmt.Errorf("%s is shorter (%d bytes) than where its run began (byte %d, %s): "+
			"the earlier runs were changed", path, st.Size(), base, StatePath(path))
	}
	_, err = f.Seek(base, io.SeekStart)
	return err
}

// extend adds the span of a line to a case's, joined to the last one
// when the line follows it in the file under the same header.
func extend(spans []span, s span) []span {
	if k := len(spans) - 1; k >= 0 && spans[k].head == s.head && spans[k].off+spans[k].n == s.off {
		spans[k].n += s.n
		return spans
	}
	return append(spans, s)
}

// tail is the size of f and whether it ends with a line end.
func tail(f *os.File) (int64, bool, error) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return 0, true, err
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, st.Size()-1); err != nil {
		return 0, false, err
	}
	return st.Size(), b[0] == '\n', nil
}

// first reads the context of the first Record kept into r.Context.
func (r *Resumed) first() error {
	var at *span
	for _, c := range r.cases {
		if at == nil || c.spans[0].off < at.off {
			at = &c.spans[0]
		}
	}
	if at == nil {
		return nil
	}
	f, err := os.Open(r.path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // only read
	return decode(f, r.path, r.heads, []span{*at}, func(rec *result.Record) error {
		ctx := rec.Context
		r.Context = &ctx
		return errEnough
	})
}

// accounted refuses to resume a results file whose records its state file
// does not know: without the state file (lost, unreadable, never made:
// the file was written by something else), or records of cases the state
// file never named. Resuming would drop them. Records without a case (the
// summaries computed from the others) are dropped and computed again.
// total is the records in the file, cases their count by case.
func accounted(path string, total int, cases map[string]*stored, last map[string]event) error {
	stray := 0
	for key, c := range cases {
		if _, ok := last[key]; key != "" && !ok {
			stray += c.n
		}
	}
	switch {
	case total > 0 && len(last) == 0:
		return fmt.Errorf("%s holds %d records but its journal %s is missing or unreadable; "+
			"resuming would drop them (run without -resume to measure again into a new file)",
			path, total, StatePath(path))
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
func readState(path string) (map[string]event, []string, int64, error) {
	last := map[string]event{}
	var base int64
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return last, nil, 0, nil
	}
	if err != nil {
		return nil, nil, 0, err
	}
	defer func() { _ = f.Close() }() // only read
	sc := bufio.NewScanner(f)
	for pos := 0; sc.Scan(); pos++ {
		f := strings.Fields(sc.Text())
		switch {
		case pos == 0 && len(f) == 2 && f[0] == "base":
			// An appending run's first line (Append).
			base, err = strconv.ParseInt(f[1], 10, 64)
			if err != nil || base < 0 {
				return nil, nil, 0, fmt.Errorf("%s:1: %q: want base and a byte offset", path, sc.Text())
			}
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
	return last, order, base, sc.Err()
}

// rewrite replaces both files by what r keeps: the finished cases' lines
// and their "done" lines, then the hung cases and the "start" lines of the
// crashed ones, so that a crash before they are measured again still
// remembers them. The lines of records version 2 are copied as they are,
// each after the header it refers to; those of version 1 are written
// again in version 2. r is left pointing into the new file.
func rewrite(path string, r *Resumed, rd *reading) error {
	type piece struct {
		key string
		s   span
	}
	var pieces []piece
	for key, c := range r.cases {
		for _, s := range c.spans {
			pieces = append(pieces, piece{key, s})
		}
	}
	slices.SortFunc(pieces, func(a, b piece) int { return cmp.Compare(a.s.off, b.s.off) })
	cases := map[string]*stored{}
	var heads []span
	err := safefile.WriteWith(path, func(out io.Writer) error {
		if len(pieces) == 0 && rd.base == 0 {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer func() { _ = in.Close() }() // only read
		c := &copier{in: in, w: bufio.NewWriterSize(out, 64*1024), rd: rd, newHead: map[int]int{}, pos: rd.base}
		// The earlier runs of an appended file, as they are.
		if _, err := io.Copy(c.w, io.NewSectionReader(in, 0, rd.base)); err != nil {
			return err
		}
		for _, p := range pieces {
			s := cases[p.key]
			if s == nil {
				s = &stored{n: r.cases[p.key].n}
				cases[p.key] = s
			}
			if p.s.head < 0 {
				err = c.convert(p.s, r.path, &s.spans, &heads)
			} else {
				err = c.verbatim(p.s, r.heads, &s.spans, &heads)
			}
			if err != nil {
				return err
			}
		}
		return c.w.Flush()
	})
	if err != nil {
		return err
	}
	r.cases, r.heads = cases, heads

	var state strings.Builder
	if rd.base > 0 {
		fmt.Fprintf(&state, "base %d\n", rd.base)
	}
	for _, key := range r.Done {
		fmt.Fprintf(&state, "done %s %d\n", key, r.cases[key].n)
	}
	for _, key := range r.Hung {
		fmt.Fprintf(&state, "hung %s\n", key)
	}
	for _, key := range r.Crashed {
		fmt.Fprintf(&state, "start %s\n", key)
	}
	return safefile.WriteFile(StatePath(path), []byte(state.String()))
}

// copier writes the kept lines of the old results file in to w, noting
// where they stand in the new one.
type copier struct {
	in      *os.File
	w       *bufio.Writer
	rd      *reading
	pos     int64       // bytes written
	newHead map[int]int // an old header's index in the new file's, once written

	v1  *result.Writer // writes lines of version 1 again, after the others' runs
	v1h int            // the new header of its run
	v1c *result.Context
	buf bytes.Buffer
}

// copy copies the bytes of s at the reader's position, ending them with
// a line end where the file's last line had none, and returns the span
// they take in the new file.
func (c *copier) copy(s span, head int) (span, error) {
	if _, err := c.in.Seek(s.off, io.SeekStart); err != nil {
		return span{}, err
	}
	if _, err := io.CopyN(c.w, c.in, s.n); err != nil {
		return span{}, err
	}
	n := s.n
	if s.off+s.n == c.rd.size && !c.rd.lastNL {
		if err := c.w.WriteByte('\n'); err != nil {
			return span{}, err
		}
		n++
	}
	at := span{off: c.pos, n: n, head: head}
	c.pos += n
	return at, nil
}

// verbatim copies the lines of s as they are, after the header they
// refer to when it is not in the new file yet.
func (c *copier) verbatim(s span, old []span, spans, heads *[]span) error {
	h, ok := c.newHead[s.head]
	if !ok {
		at, err := c.copy(old[s.head], -1)
		if err != nil {
			return err
		}
		h = len(*heads)
		*heads = append(*heads, at)
		c.newHead[s.head] = h
	}
	at, err := c.copy(s, h)
	if err != nil {
		return err
	}
	*spans = extend(*spans, at)
	return nil
}

// convert writes the lines of s, records version 1, in version 2: a
// header, whose run follows every run of the file, each time the context
// changes, then the records.
func (c *copier) convert(s span, name string, spans, heads *[]span) error {
	warns, err := result.ScanLines(io.NewSectionReader(c.in, s.off, s.n), name, func(rec *result.Record, _ *result.Line) error {
		if c.v1 == nil || !reflect.DeepEqual(*c.v1c, rec.Context) {
			c.v1 = result.NewWriterAfter(&c.buf, c.rd.maxRun)
			ctx := rec.Context
			c.v1c = &ctx
		}
		c.buf.Reset()
		if err := c.v1.Write(rec); err != nil {
			return err
		}
		b := c.buf.Bytes()
		if _, err := c.w.Write(b); err != nil {
			return err
		}
		if i := bytes.IndexByte(b, '\n'); i+1 < len(b) { // a header, then the record
			c.v1h = len(*heads)
			*heads = append(*heads, span{off: c.pos, n: int64(i + 1), head: -1})
			c.pos += int64(i + 1)
			b = b[i+1:]
		}
		*spans = extend(*spans, span{off: c.pos, n: int64(len(b)), head: c.v1h})
		c.pos += int64(len(b))
		return nil
	})
	if err == nil && len(warns) > 0 {
		err = fmt.Errorf("%s changed while it was resumed: %v", name, warns[0])
	}
	return err
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
		if err := j.write(r); err != nil {
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
	if err := j.write(r); err != nil {
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
	return j.write(r)
}

// write appends r (and its run's header when new) in one write. A write
// that fails part way (a full file system) leaves part of a line, which
// every reader would trip on: the file is cut back to its last whole
// record, and every later write fails with the first error. The case's
// "done" line is never written, so -resume measures it again. The caller
// holds j.mu.
func (j *Journal) write(r *result.Record) error {
	if j.failed != nil {
		return j.failed
	}
	st, err := j.out.Stat()
	if err != nil {
		return err
	}
	if err := j.w.Write(r); err != nil {
		if terr := j.out.Truncate(st.Size()); terr != nil {
			err = errors.Join(err, fmt.Errorf("cutting %s back to its last whole record: %w", j.out.Name(), terr))
		}
		j.failed = err
		return err
	}
	return nil
}
