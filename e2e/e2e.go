// Package e2e is the harness of the end-to-end tests: the packages below
// it (one per suite, and one each for the analysis commands and for
// faults) run the mpibench binary as a user does, under the real
// launcher (mpirun.openmpi / mpirun.mpich, else mpirun), and read what it
// prints and writes.
//
// Main, every package's TestMain, builds the binary for the MPI flavour
// the test binary was built for (mpi.Flavor) into a folder that the
// packages of this checkout share: the first package links it, the others
// find it up to date. Without a launcher the MPI tests fail, unless
// MPIBENCH_SKIP_MPI=1; under -short no test runs (each launches mpirun,
// the fast checks live in the packages' own tests).
package e2e

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"mpibench/mpi"
)

// Main is the TestMain of every end-to-end package: it builds the binary,
// finds the launcher and the peers, and runs the tests.
func Main(m *testing.M) int {
	flag.Parse() // for testing.Short and testing.Verbose
	if testing.Short() {
		Notice("e2e: %s skipped under -short: its tests launch the mpibench binary under mpirun\n", pkgName())
		return 0
	}
	bin, err := build(buildTags(""))
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	release, binPath = bin, bin
	findLauncher()
	buildPeers()
	code := m.Run()
	printPeerSkips()
	return code
}

// pkgName is the test binary's package, for messages.
func pkgName() string {
	return strings.TrimSuffix(filepath.Base(os.Args[0]), ".test")
}

var (
	release string // the release binary Main built
	binPath string // the binary Launch runs: release, or the mutant one under UseMutant
)

// Bin is the binary Launch and Direct run now.
func Bin() string { return binPath }

// buildTags are the build tags of a binary of this MPI with extra tags
// ("" or "mutant").
func buildTags(extra string) string {
	tags := extra
	if mpi.Flavor == "mpich" {
		tags = strings.TrimPrefix(tags+",mpich", ",")
	}
	return tags
}

// builds remembers the binaries this test binary built, by tags.
var builds struct {
	sync.Mutex
	paths map[string]string
}

// build builds mpibench with tags into the shared folder, once per test
// binary; a lock keeps the packages that run at the same time from
// building together.
func build(tags string) (string, error) {
	builds.Lock()
	defer builds.Unlock()
	if p, ok := builds.paths[tags]; ok {
		return p, nil
	}
	dir, err := sharedDir()
	if err != nil {
		return "", err
	}
	unlock, err := lockFile(filepath.Join(dir, ".build.lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	path := filepath.Join(dir, strings.TrimSuffix("mpibench-"+strings.ReplaceAll(tags, ",", "-"), "-"))
	args := []string{"build", "-tags", tags, "-o", path, "mpibench/cmd/mpibench"}
	if out, err := exec.Command(GoTool(), args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if builds.paths == nil {
		builds.paths = map[string]string{}
	}
	builds.paths[tags] = path
	return path, nil
}

// sharedDir is the folder of this checkout's test builds: in the temp
// folder, named after the user and the module's root, so that two
// checkouts on one machine do not run each other's code.
func sharedDir() (string, error) {
	out, err := exec.Command(GoTool(), "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(string(out))))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("mpibench-e2e-%d-%x", os.Getuid(), sum[:6]))
	return dir, os.MkdirAll(dir, 0o755)
}

// GoTool is the go command.
func GoTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// Testdata is the path of a file of e2e/testdata.
func Testdata(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command(GoTool(), "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Join(filepath.Dir(strings.TrimSpace(string(out))), "e2e", "testdata", name)
}

// lockFile takes an exclusive lock on path, waiting for it, and returns
// its release.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		_ = f.Close() // the locking error is the one to tell
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	// Closing the file releases the lock; nothing was written to it.
	return func() { _ = f.Close() }, nil
}
