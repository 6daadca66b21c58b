package faults

// Issue 12, section 3: b_eff_io and IMB-IO never fill a disk and never
// ignore a failed write. The tests run under the real launcher on a small
// tmpfs of their own: a plan larger than the file system is refused before
// anything is written, and a file system filled right after the check (the
// mutant build's MPIBENCH_DISK_FILL hook, which a release build lacks)
// ends the run on every rank with the file, the call and the error named,
// the records so far kept and the benchmark files removed.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"mpibench/e2e"
)

// tmpfsDir mounts a tmpfs of the given size ("64m") on a new directory and
// unmounts it when the test ends. Mounting needs root: the test is skipped
// otherwise, as CI runs it as root.
func tmpfsDir(t *testing.T, size string) string {
	t.Helper()
	e2e.NeedMPI(t)
	if os.Geteuid() != 0 {
		t.Skipf("mounting a %s tmpfs (mount -t tmpfs -o size=%s) needs root; run the tests as root", size, size)
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount -t tmpfs -o size=%s tmpfs %s: %v\n%s", size, dir, err, out)
	}
	t.Cleanup(func() { unmount(t, dir) })
	return dir
}

// unmount unmounts dir, waiting up to 10 s for it to be free: a rank of
// a failed MPICH job can still hold a file there for a moment after
// mpirun returned ("target is busy", seen in CI). A file system still
// busy then is an error of the test, and is detached (umount -l) so that
// no mount outlives it.
func unmount(t *testing.T, dir string) {
	t.Helper()
	var out []byte
	var err error
	for i := 0; i < 50; i++ {
		if out, err = exec.Command("umount", dir).CombinedOutput(); err == nil {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Errorf("umount %s: %v\n%s", dir, err, out)
	_ = exec.Command("umount", "-l", dir).Run()
}

// dirNames lists dir but the filler file of the hook.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if e.Name() != ".mpibench-test-filler" {
			names = append(names, e.Name())
		}
	}
	return names
}

// A plan that cannot fit: exit 2 before anything is written, the need
// and the free space (or the limit) named, nothing left in the directory.
func TestDiskRefused(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	big, small := tmpfsDir(t, "100m"), tmpfsDir(t, "64m")
	for _, c := range []struct {
		dir  string
		args []string
		want []string
	}{
		// b_eff_io writes every pattern once at least: 2 processes with
		// M_PART 2 MiB need about 70 MiB, more than the default half of
		// 100 MiB.
		{big, []string{"beffio", "-T", "2", "-mem", "16"}, []string{"needs up to 70.", "without -disk", "half the free space"}},
		{big, []string{"beffio", "-T", "2", "-mem", "16", "-disk", "1G"}, []string{"needs up to", "its file system has 100.0 MiB"}},
		{big, []string{"beffio", "-T", "2", "-mem", "16", "-disk", "20M"}, []string{"needs up to 70.", "-disk allows 20.0 MiB"}},
		// IMB-IO: a 16 MiB file and the reserve of one 16 MiB step on 2
		// processes.
		{small, []string{"io", "P_Write_Indv"}, []string{"needs up to 48.0 MiB", "half the free space"}},
		{small, []string{"io", "-disk", "10M", "S_Write_Indv", "C_Write_Shared"}, []string{"needs up to", "-disk allows 10.0 MiB"}},
	} {
		js := filepath.Join(t.TempDir(), "r.jsonl")
		args := append(append([]string{}, c.args...), "-iodir", c.dir, "-json", js)
		r := e2e.Launch(t, 2, args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 {
			t.Errorf("%q: exit code %d, want 2\n%s", c.args, r.Code, r)
		}
		for _, w := range append(c.want, "nothing was written") {
			if strings.Count(r.Stderr, w) != 1 {
				t.Errorf("%q: want %q once in stderr\n%s", c.args, w, r)
			}
		}
		if names := dirNames(t, c.dir); len(names) > 0 {
			t.Errorf("%q: files created: %v", c.args, names)
		}
		if data, _ := os.ReadFile(js); len(data) > 0 {
			t.Errorf("%q: records written: %s", c.args, data)
		}
	}
}

// -disk values that are not sizes are bad input, exit 2 on every rank
// (the table of them: the suites' TestBadInput and TestFlagErrors, read
// in process).
func TestDiskFlagBad(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"beffio", "-T", "1", "-mem", "1", "-iodir", dir, "-disk", "0"},
	} {
		r := e2e.Launch(t, 2, args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, "-disk") {
			t.Errorf("%q: want exit 2 naming -disk, got %s", args, r)
		}
	}
}

// A file system that fills during the run: the hook of the mutant build
// leaves `leave` bytes free right after the check passed. The run must end
// within the launcher's time with a non-zero exit, name the file and the
// failure, keep the records of the cases that finished before and remove
// every benchmark file.
func diskFullRun(t *testing.T, dir, leave string, minRecords int, args ...string) {
	t.Helper()
	t.Setenv(e2e.MutantEnv, "")
	t.Setenv("MPIBENCH_DISK_FILL", leave)
	js := filepath.Join(t.TempDir(), "r.jsonl")
	r := e2e.LaunchBin(t, e2e.MutantBinary(t), 2, append(args, "-iodir", dir, "-json", js)...)
	os.Remove(filepath.Join(dir, ".mpibench-test-filler"))
	e2e.NoPanic(t, r)
	if r.Code == 0 {
		t.Errorf("%q: exit code 0 on a full disk\n%s", args, r)
	}
	if !fullDiskMessage.MatchString(r.Stderr) {
		t.Errorf("%q: no message naming the full disk\n%s", args, r)
	}
	if !strings.Contains(r.Stderr, dir+"/") {
		t.Errorf("%q: the message does not name the file\n%s", args, r)
	}
	if names := dirNames(t, dir); len(names) > 0 {
		t.Errorf("%q: files left behind: %v", args, names)
	}
	data, _ := os.ReadFile(js)
	if n := strings.Count(string(data), "\n") - strings.Count(string(data), `{"schema":`); n < minRecords {
		t.Errorf("%q: %d records kept, want at least %d", args, n, minRecords)
	}
}

// fullDiskMessage: MPICH reports the failed write, Open MPI a short count
// (wrote 0 of 1048576 bytes, or part of it) or nothing at all, which the
// free-space check catches.
var fullDiskMessage = regexp.MustCompile(`No space left on device|bytes free while writing|: wrote \d+ of \d+ bytes`)

func TestBeffIODiskFull(t *testing.T) {
	dir := tmpfsDir(t, "200m")
	// 40 MiB free: the scatter and shared types fit, separated does not.
	diskFullRun(t, dir, strconv.Itoa(40<<20), 9, "beffio", "-T", "2", "-mem", "16")
	// Nothing free: the first write fails.
	diskFullRun(t, dir, "0", 0, "beffio", "-T", "2", "-mem", "16")
}

func TestIODiskFull(t *testing.T) {
	dir := tmpfsDir(t, "64m")
	// 8 MB free: the lengths up to 64 KiB fit, with their records.
	diskFullRun(t, dir, "8000000", 10, "io", "-disk", "60M", "P_Write_Priv", "C_Write_Indv")
	diskFullRun(t, dir, "0", 0, "io", "-disk", "60M", "S_Write_Expl")
}

// TestResultsFileFull: the results file's own file system fills mid-run.
// The run stops with a message and a non-zero exit; the file ends at its
// last whole record (it once kept half a line, cut mid-field), so that
// every reader takes it; once there is room again, -resume finishes the
// run from what the journal kept.
func TestResultsFileFull(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	dir := tmpfsDir(t, "16k")
	js := filepath.Join(dir, "r.jsonl")
	args := []string{"mpi1", "PingPong", "PingPing", "Sendrecv", "Exchange", "-iter", "10", "-time", "off", "-json", js}
	r := e2e.Launch(t, 2, args...)
	e2e.NoPanic(t, r)
	if r.Code == 0 || !strings.Contains(r.Stderr, "no space left on device") {
		t.Fatalf("want a failed run naming the full disk, got %s", r)
	}
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("the results file does not end with a whole line (%d bytes): %q", len(data), e2e.Tail(string(data), 200))
	}
	merged := e2e.Direct(t, "merge", js, "-o", filepath.Join(t.TempDir(), "m.jsonl"))
	if merged.Code != 0 || strings.Contains(merged.Stderr, "warning") {
		t.Errorf("merge of the cut file: %s", merged)
	}
	if out, err := exec.Command("mount", "-o", "remount,size=16m", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v\n%s", err, out)
	}
	resumed := e2e.Launch(t, 2, append(args, "-resume")...)
	e2e.MustSucceed(t, resumed)
	data, _ = os.ReadFile(js)
	if n := strings.Count(string(data), `"benchmark":"Exchange"`); n != 24 {
		t.Errorf("after -resume: %d Exchange records, want IMB 3.0's 24 lengths", n)
	}
}
