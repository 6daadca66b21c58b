package result

import (
	"bytes"
	"fmt"
)

// isHeader says whether a line is a run header of records version 2 or
// 3: an object whose first key is "schema", as Writer puts it.
func isHeader(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("{"))
	return ok && bytes.HasPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte(`"schema"`))
}

// runs resolves the records of version 2 and 3 against the run headers read so
// far, in file order: a record gets its run's context and, where its line
// leaves them out, the groups its description gives.
type runs struct {
	name   string
	ctx    map[int]*Context
	groups map[groupsKey][][]int // shared by the records of a layout: read only
	warns  []Warning
}

type groupsKey struct {
	procs, q, mapP, mapQ int
	multi                bool
}

func newRuns(name string) *runs {
	return &runs{name: name, ctx: map[int]*Context{}, groups: map[groupsKey][][]int{}}
}

// batch hands the batch's records to fn in file order, its headers taken
// where they stand.
func (s *runs) batch(b *scanned, fn func(*Record) error) error {
	h := 0
	for i := range b.recs {
		for ; h < len(b.heads) && b.heads[h].before <= i; h++ {
			s.header(&b.heads[h])
		}
		r := &b.recs[i]
		if err := s.resolve(r); err != nil {
			s.warns = append(s.warns, Warning{s.name, b.lines[i], err})
			continue
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	for ; h < len(b.heads); h++ {
		s.header(&b.heads[h])
	}
	return nil
}

func (s *runs) header(sh *scannedHead) {
	switch h := &sh.h; {
	case h.Schema > Schema:
		s.warn(sh.line, fmt.Errorf("records version %d: this mpibench reads versions 1 to %d", h.Schema, Schema))
	case h.Schema < 2:
		s.warn(sh.line, fmt.Errorf("run header of records version %d: version 1 has no header", h.Schema))
	case h.Run < 1:
		s.warn(sh.line, fmt.Errorf("run header with run %d: runs count from 1", h.Run))
	default:
		c := h.Context
		s.ctx[h.Run] = &c
		return
	}
	// A record of a refused header is refused with it, not given
	// another run's context.
	delete(s.ctx, sh.h.Run)
}

func (s *runs) warn(line int, err error) { s.warns = append(s.warns, Warning{s.name, line, err}) }

// resolve gives a version 2 or 3 record its context and groups; a record of
// version 1 carries both.
func (s *runs) resolve(r *Record) error {
	if !knownSuites[r.Suite] {
		return notRecord(r)
	}
	if r.Run == 0 {
		return nil
	}
	c, ok := s.ctx[r.Run]
	if !ok {
		return fmt.Errorf("record of run %d, and no valid header of run %d before it", r.Run, r.Run)
	}
	r.Context, r.Run = *c, 0
	if r.Groups != nil && len(r.Groups) == 0 {
		r.Groups = nil // written as [] for none: not "as described"
		return nil
	}
	if r.Groups != nil || !describesGroups(r) {
		return nil
	}
	k := groupsKey{procs: c.Procs, q: r.NProcs, multi: r.Multi >= 0}
	if len(r.Map) == 2 {
		k.mapP, k.mapQ = r.Map[0], r.Map[1]
	}
	g, ok := s.groups[k]
	if !ok {
		g = describedGroups(r, c.Procs)
		s.groups[k] = g
	}
	if g == nil {
		return fmt.Errorf("no groups, and np %d, map %v and multi %d describe none on %d ranks",
			r.NProcs, r.Map, r.Multi, c.Procs)
	}
	r.Groups = g
	return nil
}
