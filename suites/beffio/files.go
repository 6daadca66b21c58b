package beffio

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// files is the registry of the benchmark files of this process: every
// name begins with prefix in dir. Removing by prefix also removes what
// the MPI library adds beside a file (Open MPI's shared file pointer
// keeps a lock file next to it).
var files struct {
	sync.Mutex
	dir, prefix string
}

// Register records where this process's benchmark files go.
func Register(dir, prefix string) {
	files.Lock()
	defer files.Unlock()
	files.dir, files.prefix = dir, prefix
}

// RemoveFiles removes every file of the registered prefix with plain
// os.Remove: it is safe in a signal handler, where MPI cannot be called,
// and when several ranks remove the same files (a missing file is no
// error). It returns the first other error.
func RemoveFiles() error {
	files.Lock()
	dir, prefix := files.dir, files.prefix
	files.Unlock()
	if prefix == "" {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var first error
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !os.IsNotExist(err) && first == nil {
			first = err
		}
	}
	return first
}

// FileName is the file of one pattern type on a partition of n
// processes; type 2 has one per rank.
func FileName(dir, prefix string, n, typ, rank int) string {
	name := prefix + "_n" + strconv.Itoa(n) + "_t" + strconv.Itoa(typ)
	if typ == 2 {
		name += "." + strconv.Itoa(rank)
	}
	return filepath.Join(dir, name)
}
