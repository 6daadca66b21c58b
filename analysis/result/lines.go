package result

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Span is where a line stands in a stream.
type Span struct {
	Off  int64 // offset of its first byte
	Len  int64 // its bytes, the line end included
	Line int   // its number, from 1
}

// Line is where a record ScanLines hands over stands, and the header it
// refers to.
type Line struct {
	Span      // the record's line
	Run  int  // the run the line gives (version 2); 0 for version 1, which has no header
	Head Span // the line of that run's header; zero for version 1
}

// maxLine is the longest line a reader takes, as Scan's.
const maxLine = 64 * 1024 * 1024

// ScanLines reads a JSON Lines stream as Scan does, lines that do not
// parse skipped and reported as Warnings, but in the calling goroutine,
// and hands fn each record with where its line and its run's header stand
// in the stream. It copies no line and decodes every record into the same
// two Records: the record fn gets is fn's only during the call (a copy of
// it keeps its strings and lists). What it allocates does not grow with
// the stream where the lines are plain, so that -resume passes over a
// results file of any size in the memory of a few lines.
func ScanLines(r io.Reader, name string, fn func(*Record, *Line) error) ([]Warning, error) {
	br := bufio.NewReaderSize(r, 64*1024)
	sc := &lineScanner{runs: newRuns(name), heads: map[int]Span{}, fn: fn}
	var (
		off  int64
		num  int
		long []byte
	)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
				if len(long) > maxLine {
					return sc.runs.warns, bufio.ErrTooLong
				}
			}
			line = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return sc.runs.warns, err
		}
		if len(line) == 0 {
			return sc.runs.warns, nil
		}
		num++
		at := Span{Off: off, Len: int64(len(line)), Line: num}
		off += int64(len(line))
		if ferr := sc.line(bytes.TrimSpace(line), at); ferr != nil {
			return sc.runs.warns, ferr
		}
		if err != nil { // io.EOF after a last line without its line end
			return sc.runs.warns, nil
		}
	}
}

// lineScanner is the state of ScanLines. Nothing of it is made again
// for each line: the records, and the Line fn gets, are reused.
type lineScanner struct {
	runs  *runs
	heads map[int]Span // the valid headers, by run
	two   [2]Record    // the record being decoded, and the one before it
	cur   int
	ln    Line
	fn    func(*Record, *Line) error
}

// line takes one line: a header, or a record.
func (sc *lineScanner) line(text []byte, at Span) error {
	if len(text) == 0 {
		return nil
	}
	runs := sc.runs
	if isHeader(text) {
		var h RunHeader
		if err := json.Unmarshal(text, &h); err != nil {
			runs.warn(at.Line, err)
			return nil
		}
		runs.header(&scannedHead{line: at.Line, h: h})
		if _, ok := runs.ctx[h.Run]; ok {
			sc.heads[h.Run] = at
		} else {
			delete(sc.heads, h.Run)
		}
		return nil
	}
	rec, prev := &sc.two[sc.cur], &sc.two[1-sc.cur]
	*rec = Record{}
	if err := decodeRecord(text, rec, prev); err != nil {
		runs.warn(at.Line, err)
		return nil
	}
	sc.ln = Line{Span: at, Run: rec.Run}
	if err := runs.resolve(rec); err != nil {
		runs.warn(at.Line, err)
		return nil
	}
	if sc.ln.Run != 0 {
		sc.ln.Head = sc.heads[sc.ln.Run]
	}
	sc.cur = 1 - sc.cur
	return sc.fn(rec, &sc.ln)
}
