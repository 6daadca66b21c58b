package tune

import (
	"errors"
	"io"
)

// MPICH (stub until the MPICH side lands).
type MPICH struct{}

func (m *MPICH) Name() string                          { return "MPICH" }
func (m *MPICH) Algorithms() (map[string][]Alg, error) { return nil, errors.New("todo") }
func (m *MPICH) Force(c Coll, a Alg) []string          { return nil }
func (m *MPICH) WriteRules(w io.Writer, t Table) error { return errors.New("todo") }
func (m *MPICH) RulesEnv(path string) []string         { return nil }
func (m *MPICH) Metric(c Coll, np, bytes int) int      { return bytes }
