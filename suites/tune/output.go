package tune

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"mpibench/internal/safefile"
)

// rulesFile is the name of the tuning file in the output folder.
func rulesFile(lib Library) string {
	if _, ok := lib.(*OpenMPI); ok {
		return "ompi-rules.conf"
	}
	return "mpich-coll.json"
}

// writeFile writes path whole or not at all (safefile.WriteWith: a
// temporary file renamed over it), so that no reader ever sees half of
// it.
func writeFile(path string, write func(io.Writer) error) error {
	err := safefile.WriteWith(path, func(f io.Writer) error {
		w := bufio.NewWriter(f)
		if err := write(w); err != nil {
			return err
		}
		return w.Flush()
	})
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// writeLines writes each element of v as one JSON line.
func writeLines[T any](path string, v []T) error {
	return writeFile(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for i := range v {
			if err := enc.Encode(&v[i]); err != nil {
				return err
			}
		}
		return nil
	})
}
