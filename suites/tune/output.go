package tune

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// rulesFile is the name of the tuning file in the output folder.
func rulesFile(lib Library) string {
	if _, ok := lib.(*OpenMPI); ok {
		return "ompi-rules.conf"
	}
	return "mpich-coll.json"
}

// writeFile writes path whole or not at all: into a temporary file of the
// same folder, renamed over path once written and synced, so that no
// reader ever sees half of it.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(f.Name()) }() // gone once renamed
	w := bufio.NewWriter(f)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
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
