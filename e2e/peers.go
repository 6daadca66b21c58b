package e2e

// The peers: Intel's IMB 2021.11 and OSU 7.4 programs the side-by-side
// tests run next to mpibench. Main builds them once from ../shared where
// they are missing (as scripts/setup.sh --test does). A side-by-side test
// that still finds its peer missing fails: CI builds the peers, and a
// comparison that silently does not happen is no test. Where there is no
// way to build them, MPIBENCH_SKIP_PEERS=1 skips those tests instead, and
// the run ends with a line on stderr naming every such test.

import (
	stdcontext "context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mpibench/mpi"
)

const (
	// peersBuildTimeout bounds build.sh (about 2 minutes on a quiet
	// machine, for both MPIs; 17 on a loaded 2-core one) and IMB-MPI4's
	// make.
	peersBuildTimeout = 30 * time.Minute
	// peersBuildHint says how to build the peers by hand.
	peersBuildHint = "`bash ../shared/peers/build.sh ~/.cache/mpibench-peers` builds it"
)

// peersScript is build.sh beside the repository (../shared/peers).
func peersScript() string {
	out, err := exec.Command(GoTool(), "env", "GOMOD").Output()
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(strings.TrimSpace(string(out))), "..", "shared", "peers", "build.sh")
}

// peersDest is where build.sh puts the peers, one bin folder per MPI.
func peersDest() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "mpibench-peers")
}

// PeerBinary is the peer program name (IMB-NBC, osu_latency) for this
// MPI in peersDest, or "".
func PeerBinary(name string) string {
	dest := peersDest()
	if dest == "" {
		return ""
	}
	p := filepath.Join(dest, mpi.Flavor, "bin", name)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// peerSkips are the tests that skipped for lack of a peer, with the
// peer's name, for the summary at the end of the run.
var peerSkips struct {
	sync.Mutex
	names []string
}

// NeedPeer returns the path of the peer program name for this MPI, or
// fails t; with MPIBENCH_SKIP_PEERS=1 it skips t loudly instead, noting
// it for the summary. hint says how to get the program; "" for
// build.sh's.
func NeedPeer(t *testing.T, name, path, hint string) string {
	t.Helper()
	if path != "" {
		return path
	}
	if hint == "" {
		hint = peersBuildHint
	}
	why := fmt.Sprintf("no %s for %s in %s; %s", name, mpi.Flavor, filepath.Join(peersDest(), mpi.Flavor, "bin"), hint)
	if os.Getenv("MPIBENCH_SKIP_PEERS") != "1" {
		t.Fatalf("%s (MPIBENCH_SKIP_PEERS=1 skips the side-by-side tests)", why)
	}
	peerSkips.Lock()
	peerSkips.names = append(peerSkips.names, fmt.Sprintf("%s (%s)", t.Name(), name))
	peerSkips.Unlock()
	t.Skipf("SKIPPED LOUDLY: %s", why)
	return ""
}

// peerSkipSummary is the closing line naming the tests that skipped for
// lack of a peer, or "" when none did.
func peerSkipSummary() string {
	peerSkips.Lock()
	defer peerSkips.Unlock()
	if len(peerSkips.names) == 0 {
		return ""
	}
	names := slices.Clone(peerSkips.names)
	slices.Sort(names)
	return fmt.Sprintf("mpibench tests: SKIPPED LOUDLY, no peer binary for %s: %s\n", mpi.Flavor,
		strings.Join(slices.Compact(names), ", "))
}

// printPeerSkips writes the summary (Notice).
func printPeerSkips() {
	if s := peerSkipSummary(); s != "" {
		Notice("%s", s)
	}
}

// Notice writes a line of the tests' own to stderr: go test's own where
// go test would keep it to itself (it shows a passing package's output
// only with -v; it streams it in directory mode, where this is printed
// once all the same), else this binary's. Flags must be parsed.
func Notice(format string, a ...any) {
	w := os.Stderr
	if f := goTestStderr(); f != nil && !testing.Verbose() {
		defer func() { _ = f.Close() }()
		w = f
	}
	// A notice that cannot be written has nowhere else to go.
	_, _ = fmt.Fprintf(w, format, a...)
}

// goTestStderr opens the stderr of the go command that runs this test
// binary (Linux: /proc/PPID/fd/2), or returns nil where go is not the
// parent or the file cannot be shared: this opening has its own offset,
// so a regular file that go does not append to would have the line
// overwritten by go's next write.
func goTestStderr() *os.File {
	parent := fmt.Sprintf("/proc/%d", os.Getppid())
	if comm, err := os.ReadFile(parent + "/comm"); err != nil || strings.TrimSpace(string(comm)) != "go" {
		return nil
	}
	fi, err := os.Stat(parent + "/fd/2")
	if err != nil || (fi.Mode().IsRegular() && !appends(parent+"/fdinfo/2")) {
		return nil
	}
	f, err := os.OpenFile(parent+"/fd/2", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil
	}
	return f
}

// appends tells whether the descriptor that the fdinfo file describes is
// open with O_APPEND (its "flags:" line, octal).
func appends(fdinfo string) bool {
	b, err := os.ReadFile(fdinfo)
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "flags:"); ok {
			flags, err := strconv.ParseInt(strings.TrimSpace(v), 8, 64)
			return err == nil && flags&syscall.O_APPEND != 0
		}
	}
	return false
}

// buildPeers builds the peers into peersDest with ../shared/peers/build.sh
// when this MPI's IMB-MPI1 is missing and the script is there, and
// MPICH's IMB-MPI4, which build.sh leaves out, as scripts/setup.sh --test
// does (same destination and logs). Once: a lock keeps concurrent test
// runs from building together, and a marker in peersDest from trying
// again after a failed build. A failure only costs the comparisons: their
// tests fail.
func buildPeers() {
	dest := peersDest()
	if dest == "" || PeerBinary("IMB-MPI1") != "" {
		return
	}
	if _, err := os.Stat(peersScript()); err != nil {
		return
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		Notice("mpibench tests: peers: %v\n", err)
		return
	}
	unlock, err := lockFile(filepath.Join(dest, ".tests-build.lock"))
	if err != nil {
		Notice("mpibench tests: peers: %v\n", err)
		return
	}
	defer unlock()
	marker := filepath.Join(dest, ".tests-build-tried")
	if PeerBinary("IMB-MPI1") != "" {
		return // built meanwhile
	}
	if _, err := os.Stat(marker); err == nil {
		Notice("mpibench tests: no peers, and a build was tried before (rm %s to try again)\n", marker)
		return
	}
	runPeerBuild(dest)
	if err := os.WriteFile(marker, []byte(time.Now().Format(time.RFC3339)+"\n"), 0o644); err != nil {
		Notice("mpibench tests: peers: %v\n", err)
	}
}

// runPeerBuild runs build.sh and IMB-MPI4's make, saying so on stderr.
func runPeerBuild(dest string) {
	logDir := os.Getenv("TMPDIR")
	if logDir == "" {
		logDir = "/tmp"
	}
	script, err := filepath.Abs(peersScript())
	if err != nil {
		Notice("mpibench tests: peers: %v\n", err)
		return
	}
	Notice("mpibench tests: building the peers into %s (about 2 minutes; log %s)\n",
		dest, filepath.Join(logDir, "mpibench-peers.log"))
	if err := runLogged(filepath.Join(logDir, "mpibench-peers.log"), "bash", script, dest); err != nil {
		Notice("mpibench tests: the peers did not all build (%v); their side-by-side tests will fail\n", err)
	}
	imb := filepath.Join(dest, "src-mpich", "mpi-benchmarks", "src_cpp")
	mpi4 := filepath.Join(dest, "mpich", "bin", "IMB-MPI4")
	if _, err := os.Stat(imb); err != nil {
		return
	}
	if _, err := os.Stat(mpi4); err == nil {
		return
	}
	err = runLogged(filepath.Join(logDir, "mpibench-peers-mpi4.log"), "make", "-s", "-C", imb, "-f", "Makefile",
		"TARGET=MPI4", "CC=mpicc.mpich", "CXX=mpicxx.mpich")
	if err == nil {
		err = copyFile(filepath.Join(imb, "IMB-MPI4"), mpi4)
	}
	if err != nil {
		Notice("mpibench tests: IMB-MPI4 did not build (%v); its side-by-side test will fail\n", err)
	}
}

// runLogged runs name with args, its output into the file log, within
// peersBuildTimeout.
func runLogged(log, name string, args ...string) error {
	f, err := os.Create(log)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // the build's own error is the one to tell
	ctx, cancel := stdcontext.WithTimeout(stdcontext.Background(), peersBuildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = f, f
	// its own process group, so that a timeout ends the makes and
	// compilers below it too
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s: no end within %v, see %s", name, peersBuildTimeout, log)
		}
		return fmt.Errorf("%s: %v, see %s", name, err, log)
	}
	return nil
}

// copyFile copies the program src to dst.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o755)
}
