package faults

// The benchmark files of IMB-IO and b_eff_io are private (mode 0600) and
// never written through a link, even in a shared -iodir such as /tmp.

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mpibench/e2e"
)

// privateDir is a directory as /tmp is: world-writable and sticky.
func privateDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, fs.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// privateWatch records the mode of every file that appears in dir until
// stop is closed.
func privateWatch(dir string, stop chan struct{}) <-chan map[string]fs.FileMode {
	out := make(chan map[string]fs.FileMode, 1)
	go func() {
		seen := map[string]fs.FileMode{}
		for {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if info, err := e.Info(); err == nil {
					seen[e.Name()] = info.Mode()
				}
			}
			select {
			case <-stop:
				out <- seen
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return out
}

// privateLaunch runs mpibench under umask 022, which would give new files
// mode 0644, and returns the modes of the files seen in dir.
func privateLaunch(t *testing.T, np int, dir string, args ...string) (e2e.Result, map[string]fs.FileMode) {
	t.Helper()
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	stop := make(chan struct{})
	seen := privateWatch(dir, stop)
	r := e2e.Launch(t, np, args...)
	close(stop)
	return r, <-seen
}

// privateCheck: every file seen is a regular file of mode 0600, and one
// named want was seen.
func privateCheck(t *testing.T, seen map[string]fs.FileMode, want string) {
	t.Helper()
	for name, m := range seen {
		if !m.IsRegular() || m.Perm() != 0o600 {
			t.Errorf("%s: mode %v, want a regular file of mode 0600", name, m)
		}
	}
	if _, ok := seen[want]; !ok {
		t.Errorf("never saw %s; saw %v", want, seen)
	}
}

func TestIOPrivateFiles(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	e2e.NeedMPI(t)
	dir := privateDir(t)
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r, seen := privateLaunch(t, 2, dir, "io", "-iodir", dir, "-json", js, "-msglen", e2e.Lengths(t, 16<<20),
		"S_Write_Indv", "P_Write_Priv", "C_Read_Shared", "Open_Close")
	e2e.MustSucceed(t, r)
	e2e.AssertEmpty(t, dir)
	privateCheck(t, seen, "IMB_out")
}

func TestBeffIOPrivateFiles(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	e2e.NeedMPI(t)
	dir := privateDir(t)
	r, seen := privateLaunch(t, 2, dir, "beffio", "-T", "2", "-mem", "16", "-iodir", dir)
	e2e.MustSucceed(t, r)
	e2e.AssertEmpty(t, dir)
	for name := range seen {
		if strings.HasPrefix(name, "b_eff_io_") && strings.HasSuffix(name, "_t0") {
			privateCheck(t, seen, name)
			return
		}
	}
	t.Errorf("never saw a type 0 file; saw %v", seen)
}

// TestIOLinkRefused plants a symbolic link under the name of the file of
// P_Write_Indv, to a file and to a missing one: the run fails, naming the
// link, and neither target is written or created.
func TestIOLinkRefused(t *testing.T) {
	e2e.NeedMPI(t)
	dir := privateDir(t)
	victims := t.TempDir()
	target := filepath.Join(victims, "precious")
	if err := os.WriteFile(target, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, to := range []string{target, filepath.Join(victims, "missing")} {
		link := filepath.Join(dir, "IMB_out")
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
		r := e2e.Launch(t, 2, "io", "-iodir", dir, "-msglen", e2e.Lengths(t, 1024), "P_Write_Indv")
		e2e.NoPanic(t, r)
		if r.Code == 0 {
			t.Errorf("link to %s: want a failure, got %s", to, r)
		}
		// MPICH's launcher may end the job before it forwards the
		// aborting rank's message.
		if !strings.Contains(r.Stderr, link+" is a symbolic link") && e2e.LauncherKind() == "openmpi" {
			t.Errorf("link to %s: the message does not name the link: %s", to, r)
		}
		os.Remove(link)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "precious" {
		t.Errorf("the link's target was changed: %q, %v", b, err)
	}
	if _, err := os.Lstat(filepath.Join(victims, "missing")); err == nil {
		t.Error("the target of the dangling link was created")
	}
}
