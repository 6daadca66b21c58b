package e2e

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mpibench/mpi"
)

// WriteFile writes text into a new file name in a temporary folder of the
// test and returns its path.
func WriteFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// AssertEmpty fails the test for every file left in dir (an -iodir).
func AssertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("file left in %s: %s", dir, e.Name())
	}
}

// FullStdout runs the binary alone (MPI's singleton start, one process)
// with its stdout on /dev/full, where every write fails.
func FullStdout(t *testing.T, args ...string) Result {
	t.Helper()
	cmd, stdout, stderr := StartCmd(t, "sh", append([]string{"-c", `exec "$0" "$@" >/dev/full`, binPath}, args...)...)
	return WaitRun(t, cmd, stdout, stderr, DirectTimeout+10*time.Second)
}

// Descendants lists the processes below pid, children first, from the
// kernel's list of every thread's children.
func Descendants(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	for _, task := range tasks {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + task.Name() + "/children")
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	for _, c := range out {
		out = append(out, Descendants(c)...)
	}
	return out
}

// NeedAvailable skips the test when the node has less than n bytes of
// available memory.
func NeedAvailable(t *testing.T, n int64) {
	t.Helper()
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Skipf("no /proc/meminfo: %v", err)
	}
	defer func() { _ = f.Close() }() // read only
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) >= 2 && fs[0] == "MemAvailable:" {
			if kb, _ := strconv.ParseInt(fs[1], 10, 64); kb*1024 < n {
				t.Skipf("needs %d MiB of available memory, the node has %d MiB", n>>20, kb>>10)
			}
			return
		}
	}
	t.Skip("no MemAvailable in /proc/meminfo")
}

// WantCountMode is the count_mode of a message past the int limit.
func WantCountMode(force bool) string {
	if mpi.Flavor == "mpich" && !force {
		return "mpi4-large-count"
	}
	return "derived-type"
}
