package faults

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"mpibench/e2e"
	"mpibench/run/cases"
)

// openPTY opens a pseudo-terminal: the master, which the test reads, and
// the terminal, which mpirun gets as its stderr.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var unlock int32
	var n uint32
	if err := ioctl(master, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatalf("TIOCSPTLCK: %v", err)
	}
	if err := ioctl(master, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatalf("TIOCGPTN: %v", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return master, tty
}

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); e != 0 {
		return e
	}
	return nil
}

// ttyRun runs mpibench on np processes with the launcher's stderr on a
// pseudo-terminal and returns the run (its stderr field: what the
// terminal showed).
func ttyRun(t *testing.T, np int, args ...string) e2e.Result {
	t.Helper()
	e2e.NeedMPI(t)
	master, tty := openPTY(t)
	cmd := exec.Command(e2e.Launcher(), append(e2e.LauncherArgs(np), args...)...)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	tty.Close()
	var screen bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&screen, master) // ends with EIO once no process holds the terminal
		close(read)
	}()
	r := e2e.WaitRun(t, cmd, &stdout, new(bytes.Buffer), 60*time.Second)
	select {
	case <-read:
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal stays open after the run")
	}
	r.Stderr = screen.String()
	t.Logf("%s on a terminal: exit %d in %v", strings.Join(args, " "), r.Code, r.Dur.Round(time.Millisecond))
	return r
}

// progressLine starts every progress line of an mpi1 run.
const progressLine = "mpibench mpi1: case "

// The progress line on a terminal: mpirun's stderr is a pseudo-terminal,
// rank 1 hangs in the second of two cases, and the watchdog ends the job
// after 4 s. Rank 0 draws the slow case in place, about once a second,
// with the case of how many, the time elapsed and the time left; stdout
// and the results file have none of it. With -progress=false the
// terminal shows none.
func TestProgressTerminal(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	lens := e2e.Lengths(t, 8, 1024)
	e2e.SetFault(t, "hang:1:mpi1/PingPong/np2/1024")
	out := filepath.Join(t.TempDir(), "r.jsonl")
	r := ttyRun(t, 2, "mpi1", "-msglen", lens, "-json", out, "-timeout", "4", "PingPong")
	if r.Code != cases.ExitHung {
		t.Fatalf("exit code %d, want %d\n%s", r.Code, cases.ExitHung, r)
	}
	// Up to the first watchdog message: rank 1's comes through its own
	// pipe, wherever rank 0's line is.
	screen, _, _ := strings.Cut(r.Stderr, "mpibench mpi1: watchdog")
	draws := strings.Split(screen, "\r"+progressLine+"2/2, 0:0")
	if len(draws) < 3 {
		t.Fatalf("the slow case was drawn %d times, want 2 or more\n%q", len(draws)-1, r.Stderr)
	}
	for _, d := range draws[1:] {
		if strings.Contains(d, "\n") || !strings.Contains(d, " elapsed, about ") ||
			!strings.Contains(d, " left: PingPong") {
			t.Errorf("not redrawn in place with an estimate: %q", d)
		}
	}
	data, _ := os.ReadFile(out)
	state, _ := os.ReadFile(out + ".state")
	if strings.Contains(r.Stdout, progressLine) || strings.Contains(string(data)+string(state), "elapsed") {
		t.Errorf("progress in stdout or in the results\n%s\n%s%s", r, data, state)
	}
	r = ttyRun(t, 2, "mpi1", "-msglen", lens, "-timeout", "2", "-progress=false", "PingPong")
	if r.Code != cases.ExitHung || strings.Contains(r.Stderr, progressLine) {
		t.Errorf("-progress=false: exit %d, want %d and no progress\n%s", r.Code, cases.ExitHung, r)
	}
}

// -progress into a log (stderr a pipe): a line per case as it begins and
// a last one, no carriage return; without -progress nothing.
func TestProgressLog(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	lens := e2e.Lengths(t, 8, 1024)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	r := e2e.Launch(t, 2, "mpi1", "-msglen", lens, "-json", out, "-progress", "PingPong")
	e2e.MustSucceed(t, r)
	var lines []string
	for _, l := range strings.Split(r.Stderr, "\n") {
		if strings.HasPrefix(l, "mpibench mpi1: ") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 3 || !strings.HasPrefix(lines[0], progressLine+"1/2, 0:0") ||
		!strings.HasSuffix(lines[0], " elapsed: PingPong, 8 bytes, 2 processes") ||
		!strings.HasPrefix(lines[1], progressLine+"2/2, 0:0") ||
		!strings.HasSuffix(lines[1], " left: PingPong, 1024 bytes, 2 processes") ||
		!strings.HasPrefix(lines[2], "mpibench mpi1: 2 cases in 0:") ||
		strings.Contains(r.Stderr, "\r") {
		t.Errorf("progress lines %q\n%s", lines, r)
	}
	data, _ := os.ReadFile(out)
	if strings.Contains(r.Stdout, progressLine) || strings.Contains(string(data), "elapsed") {
		t.Errorf("progress in stdout or in the records\n%s\n%s", r, data)
	}
	r = e2e.Launch(t, 2, "mpi1", "-msglen", lens, "PingPong")
	e2e.MustSucceed(t, r)
	if strings.Contains(r.Stderr, "mpibench mpi1: ") {
		t.Errorf("progress without -progress\n%s", r)
	}
}

// testHooks are the environment variables of the mutant build's test
// hooks (cases/fault_mutant.go, mpi/mutant.go, mpi/mutant_cpu.go,
// mpi/bigcount_mutant.go, run/diskcheck/fill_mutant.go,
// run/memcheck/fake_mutant.go).
var testHooks = []string{e2e.FaultEnv, e2e.MutantEnv, e2e.FakeMemEnv, "MPIBENCH_SKEW_US", "MPIBENCH_CPU_SECS",
	"MPIBENCH_BIG_TEST", "MPIBENCH_DISK_FILL"}

// The release binary does not even hold the names of the test hooks.
func TestReleaseHasNoHooks(t *testing.T) {
	bin, err := os.ReadFile(e2e.Bin())
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range testHooks {
		if bytes.Contains(bin, []byte(env)) {
			t.Errorf("the release binary %s holds %s", e2e.Bin(), env)
		}
	}
}

// The release binary has no fault hook: MPIBENCH_FAULT set to hang a
// case, or to nonsense a mutant build refuses, changes nothing.
func TestReleaseIgnoresFault(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	lens := e2e.Lengths(t, 8)
	for _, v := range []string{"hang:*:mpi1/PingPong/np2/8", "nonsense"} {
		t.Setenv(e2e.FaultEnv, v)
		r := e2e.Launch(t, 2, "mpi1", "-msglen", lens, "-timeout", "10", "PingPong")
		e2e.MustSucceed(t, r)
	}
}
