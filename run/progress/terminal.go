package progress

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Terminal tells whether the user reads stderr on a terminal. Under a
// launcher a rank's stderr is a pipe to it (Open MPI's mpirun, MPICH's
// hydra_pmi_proxy), so what counts is the stderr of the launcher this
// process runs under: the nearest ancestor named like one (mpirun,
// mpiexec, orterun, prterun, srun and their ".flavour" forms), found
// through /proc. A process started without a launcher looks at its own
// stderr. Where /proc cannot tell (another system, a rank on a node
// other than mpirun's) the answer is no, and -progress asks for it.
func Terminal() bool {
	if isTerminal("/proc/self/fd/2") {
		return true
	}
	pid := os.Getppid()
	for i := 0; i < 8 && pid > 1; i++ {
		dir := "/proc/" + strconv.Itoa(pid)
		comm, err := os.ReadFile(dir + "/comm")
		if err != nil {
			return false
		}
		if launcher(strings.TrimSpace(string(comm))) {
			return isTerminal(dir + "/fd/2")
		}
		pid = parent(dir)
	}
	return false
}

// launcher tells whether a command name is an MPI launcher's.
func launcher(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	switch base {
	case "mpirun", "mpiexec", "orterun", "prterun", "srun":
		return true
	}
	return false
}

// isTerminal tells whether the file descriptor link fd (/proc/PID/fd/N)
// leads to a terminal device.
func isTerminal(fd string) bool {
	target, err := os.Readlink(fd)
	if err != nil {
		return false
	}
	return strings.HasPrefix(target, "/dev/pts/") || strings.HasPrefix(target, "/dev/tty") ||
		filepath.Clean(target) == "/dev/console"
}

// parent is the parent pid of the process of /proc/PID dir; 0 when it
// cannot be read.
func parent(dir string) int {
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return 0
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}
