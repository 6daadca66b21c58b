package result

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"slices"
)

// scanBatch is the number of lines one decoding goroutine takes at a
// time: large enough that the hand-over costs nothing next to the JSON
// decoding, small enough that the batches in flight stay a few MB.
const scanBatch = 256

// scanned is one batch of lines, decoded: its records with their line
// numbers, and the run headers of records version 2 and 3, each before the
// record at its index.
type scanned struct {
	recs  []Record
	lines []int
	heads []scannedHead
	warns []Warning
}

type scannedHead struct {
	before int // index in recs of the record after it
	line   int
	h      RunHeader
}

// Scan reads a JSON Lines stream record by record and hands each to fn,
// in file order, without keeping them: a results file of a million
// records is read in the memory of a few batches. Lines are decoded on
// every CPU (encoding/json is what takes the time). A line that does not
// parse is skipped and reported as a Warning, as Read does; an I/O error
// or an error of fn stops the scan and is returned.
func Scan(r io.Reader, name string, fn func(*Record) error) ([]Warning, error) {
	order := make(chan chan scanned, 2*runtime.GOMAXPROCS(0))
	readErr := make(chan error, 1)
	stop := make(chan struct{})
	go scanRead(r, name, order, readErr, stop)
	runs := newRuns(name)
	var err error
	for done := range order {
		b := <-done
		if err != nil {
			continue // drain, so that the reader ends
		}
		// The batch's lines that do not parse and its records and headers
		// that do not resolve, in line order.
		first := len(runs.warns)
		runs.warns = append(runs.warns, b.warns...)
		if err = runs.batch(&b, fn); err != nil {
			close(stop)
		}
		slices.SortStableFunc(runs.warns[first:], func(a, b Warning) int { return a.Line - b.Line })
	}
	warns := runs.warns
	if err != nil {
		return warns, err
	}
	return warns, <-readErr
}

// scanRead cuts the stream into batches of lines and starts a decoding
// goroutine for each, queueing its result channel in order. The queue's
// capacity bounds the batches in flight.
func scanRead(r io.Reader, name string, order chan<- chan scanned, readErr chan<- error, stop <-chan struct{}) {
	defer close(order)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 256*1024), 64*1024*1024)
	line, first := 0, 1
	// A batch's lines share one buffer: the scanner reuses its own.
	var buf []byte
	var ends []int
	flush := func() bool {
		done := make(chan scanned, 1)
		select {
		case order <- done:
		case <-stop:
			return false
		}
		go scanDecode(buf, ends, name, first, done)
		// The next batch is about as long: no growing it line by line.
		buf, ends, first = make([]byte, 0, cap(buf)), make([]int, 0, scanBatch), line+1
		return true
	}
	for sc.Scan() {
		line++
		buf = append(buf, sc.Bytes()...)
		ends = append(ends, len(buf))
		if len(ends) == scanBatch && !flush() {
			readErr <- nil
			return
		}
	}
	if len(ends) > 0 {
		flush()
	}
	readErr <- sc.Err()
}

// scanDecode decodes a batch whose first line is line first; line i
// ends at ends[i] in buf.
func scanDecode(buf []byte, ends []int, name string, first int, done chan<- scanned) {
	var b scanned
	b.recs = make([]Record, 0, len(ends))
	start := 0
	for i, end := range ends {
		text := bytes.TrimSpace(buf[start:end])
		start = end
		if len(text) == 0 {
			continue
		}
		if isHeader(text) {
			var h RunHeader
			if err := json.Unmarshal(text, &h); err != nil {
				b.warns = append(b.warns, Warning{name, first + i, err})
				continue
			}
			b.heads = append(b.heads, scannedHead{len(b.recs), first + i, h})
			continue
		}
		var rec Record
		var prev *Record
		if n := len(b.recs); n > 0 {
			prev = &b.recs[n-1]
		}
		if err := decodeRecord(text, &rec, prev); err != nil {
			b.warns = append(b.warns, Warning{name, first + i, err})
			continue
		}
		b.recs = append(b.recs, rec)
		b.lines = append(b.lines, first+i)
	}
	done <- b
}
