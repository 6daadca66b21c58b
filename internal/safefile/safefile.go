// Package safefile creates mpibench's output files without following
// links. Results and reports often go to shared directories such as /tmp,
// where another user can plant a symbolic or hard link under the name
// mpibench is about to write, and so make it overwrite a file of the
// user's elsewhere. Every function here refuses an existing path unless
// it is a regular file of this user with one link, and never writes
// through a link planted between that check and the open.
package safefile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Create opens path for writing, truncated, creating it if it does not
// exist. A new file gets mode 0600 in a shared directory (world-writable
// or sticky, like /tmp) and 0644 elsewhere, less the umask.
func Create(path string) (*os.File, error) { return open(path, true) }

// Append opens path for appending, creating it as Create does.
func Append(path string) (*os.File, error) { return open(path, false) }

// WriteFile replaces path with data through a temporary file in the same
// directory, renamed over path, so that readers see the old file or the
// new one and never a part. The new file keeps the mode of the one it
// replaces, or gets the mode Create gives a new file.
func WriteFile(path string, data []byte) error {
	return WriteWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith replaces path, as WriteFile does, with what write writes to
// the temporary file (an *os.File), for content too large to hold in
// memory. An error of write leaves path as it was and no temporary file
// behind; a crash before the rename leaves path as it was (and the
// temporary file, a dot file beside it).
func WriteWith(path string, write func(io.Writer) error) error {
	perm, err := writeMode(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// rename replaces a link planted at path since the check, and
		// never writes through it.
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name()) // the error told is err
	}
	return err
}

// Check returns nil when path does not exist or is a file this package
// would write: a regular file of this user with one link.
func Check(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return check(path, st)
}

func check(path string, st fs.FileInfo) error {
	nlink, uid := links(st)
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link; mpibench does not write through links", path)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", path)
	case nlink != 1:
		return fmt.Errorf("%s has %d hard links; mpibench does not write through links", path, nlink)
	case uid != os.Geteuid():
		return fmt.Errorf("%s is owned by uid %d, not by this user (uid %d)", path, uid, os.Geteuid())
	}
	return nil
}

func open(path string, truncate bool) (*os.File, error) {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return create(path, truncate)
	}
	if err != nil {
		return nil, err
	}
	if err := check(path, st); err != nil {
		return nil, err
	}
	flag := os.O_WRONLY | noFollow
	if !truncate {
		flag |= os.O_APPEND
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return nil, err
	}
	// The check again on what was opened: the name may have been
	// replaced since the Lstat. Only then is the file truncated.
	if err = sameFile(path, f, st); err == nil && truncate {
		err = f.Truncate(0)
	}
	if err != nil {
		_ = f.Close() // the error told is err
		return nil, err
	}
	return f, nil
}

func sameFile(path string, f *os.File, before fs.FileInfo) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !os.SameFile(st, before) {
		return fmt.Errorf("%s was replaced while mpibench opened it", path)
	}
	return check(path, st)
}

// create makes a new file; O_EXCL fails rather than follow a link
// planted since the Lstat.
func create(path string, truncate bool) (*os.File, error) {
	flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL | noFollow
	if !truncate {
		flag |= os.O_APPEND
	}
	f, err := os.OpenFile(path, flag, newMode(path))
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s appeared while mpibench created it: %w", path, err)
	}
	return f, err
}

// newMode is the mode of a new file at path: private in a directory other
// users can write to, readable by all elsewhere, as os.Create would make it.
func newMode(path string) fs.FileMode {
	dir, err := os.Stat(filepath.Dir(path))
	if err != nil || dir.Mode()&(fs.ModeSticky|0o002) != 0 {
		return 0o600
	}
	return 0o644
}

// writeMode is the mode WriteFile gives path: that of the file it
// replaces, else newMode less the umask (the kernel does not apply it to
// a chmod).
func writeMode(path string) (fs.FileMode, error) {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return newMode(path) &^ umask(), nil
	}
	if err != nil {
		return 0, err
	}
	if err := check(path, st); err != nil {
		return 0, err
	}
	return st.Mode().Perm(), nil
}

// umask reads the file mode creation mask from /proc: syscall.Umask can
// read it only by setting it, which races with other goroutines creating
// files. Without /proc it assumes the common 022.
func umask() fs.FileMode {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0o022
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Umask:"); ok {
			if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
				return fs.FileMode(m)
			}
		}
	}
	return 0o022
}

// Clash refuses an output path that names the same file as one of the
// inputs (another spelling, a link to it): writing would destroy what
// the run reads. A path that does not exist yet clashes with nothing.
func Clash(out string, inputs ...string) error {
	ost, err := os.Stat(out)
	if err != nil {
		return nil
	}
	for _, in := range inputs {
		if ist, err := os.Stat(in); err == nil && os.SameFile(ost, ist) {
			return fmt.Errorf("%s is also an input of this run (%s); writing it would destroy that", out, in)
		}
	}
	return nil
}
