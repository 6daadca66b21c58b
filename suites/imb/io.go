package imb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"mpibench/internal/safefile"
	"mpibench/mpi"
	"mpibench/suites/imb/kernel"
)

// FileName is settings_io.h's FILENAME: the base name of every IMB-IO
// file, created in the -iodir directory (section 5.2.3.2).
const FileName = "IMB_out"

// IOAccess is how an IMB-IO benchmark addresses its file (section 4.1).
type IOAccess int

// The postfixes of the benchmark names.
const (
	IOIndv   IOAccess = iota // _indv: individual file pointer
	IOExpl                   // _expl: explicit offsets
	IOShared                 // _shared: shared file pointer
	IOPriv                   // _priv: individual pointer, one private file per process
	IONone                   // Open_Close: no transfer
)

func (a IOAccess) String() string { return [...]string{"Indv", "Expl", "Shared", "Priv", ""}[a] }

// IOSpec describes an IMB-IO benchmark's file access.
type IOSpec struct {
	Access      IOAccess
	Write       bool // Write or Read
	NonBlocking bool // the IWrite / IRead version (section 4.2.5)
}

// IO is the IMB-IO benchmark table, in IMB's default order: the writes,
// then the reads, each S_, P_, C_ with its blocking and non-blocking
// version side by side, then Open_Close. Names are spelled as IMB prints
// them (P_Write_Indv, P_IWrite_Shared).
var IO = ioTable()

func ioTable() []Benchmark {
	classes := []struct {
		class    Class
		prefix   string
		accesses []IOAccess
	}{
		{SingleTransfer, "S", []IOAccess{IOIndv, IOExpl}},
		{ParallelTransfer, "P", []IOAccess{IOIndv, IOShared, IOPriv, IOExpl}},
		{Collective, "C", []IOAccess{IOIndv, IOShared, IOExpl}},
	}
	var t []Benchmark
	for _, write := range []bool{true, false} {
		for _, c := range classes {
			for _, a := range c.accesses {
				for _, nb := range []bool{false, true} {
					t = append(t, ioBenchmark(c.class, c.prefix, IOSpec{Access: a, Write: write, NonBlocking: nb}))
				}
			}
		}
	}
	return append(t, Benchmark{Name: "Open_Close", Class: Collective, Calls: "MPI_File_open, MPI_File_close",
		TimeScale: 1, NoBytes: true, IO: &IOSpec{Access: IONone}})
}

// ioBenchmark is one transfer benchmark. Its modes (IMB's RUN_MODES):
// blocking writes print an aggregate and a non-aggregate table (section
// 4.2.2.2), blocking reads one aggregate table, the non-blocking versions
// one table that IMB also heads AGGREGATE. The throughput is X/t with X
// the overall bytes of one transfer step (IMB's scale_bw of 1).
func ioBenchmark(class Class, prefix string, spec IOSpec) Benchmark {
	action := "Read"
	if spec.Write {
		action = "Write"
	}
	if spec.NonBlocking {
		action = "I" + action
	}
	b := Benchmark{Name: prefix + "_" + action + "_" + spec.Access.String(), Class: class,
		Calls: spec.calls(class == Collective), Factor: 1, TimeScale: 1, IO: &spec}
	switch {
	case spec.NonBlocking:
		b.Modes = []Mode{NonBlocking}
	case spec.Write:
		b.Modes = []Mode{Aggregate, NonAggregate}
	default:
		b.Modes = []Mode{Aggregate}
	}
	return b
}

// calls names the MPI-IO function of the benchmark's definition table.
func (s IOSpec) calls(collective bool) string {
	verb := "read"
	if s.Write {
		verb = "write"
	}
	suffix := map[IOAccess]string{IOIndv: "", IOPriv: "", IOExpl: "_at", IOShared: "_shared"}[s.Access]
	if collective {
		suffix = map[IOAccess]string{IOIndv: "_all", IOExpl: "_at_all", IOShared: "_ordered"}[s.Access]
	}
	switch {
	case s.NonBlocking && collective:
		return fmt.Sprintf("MPI_File_%s%s_begin/_end", verb, suffix)
	case s.NonBlocking:
		return fmt.Sprintf("MPI_File_i%s%s, MPI_Wait", verb, suffix)
	}
	return "MPI_File_" + verb + suffix
}

// perProcess reports whether every process has a file of its own: S_
// benchmarks (one process) and _priv (section 5.2.3.2), opened on
// MPI_COMM_SELF and named with a _<rank> suffix.
func (s *IOSpec) perProcess(c Class) bool { return c == SingleTransfer || s.Access == IOPriv }

// ioFileName is the file name of section 5.2.3.2: FILENAME, then
// _g<group> in a Multi run, then _<rank> (the MPI_COMM_WORLD rank, as
// IMB) for a file per process.
func ioFileName(multi bool, group int, perProcess bool, worldRank int) string {
	name := FileName
	if multi {
		name += fmt.Sprintf("_g%d", group)
	}
	if perProcess {
		name += fmt.Sprintf("_%d", worldRank)
	}
	return name
}

// ioFiles are the files this process may have on disk: its benchmark files
// and -iodir probes. RemoveFiles deletes them when a signal ends the run.
var ioFiles struct {
	sync.Mutex
	paths map[string]bool
	dirs  map[string]bool // the directories of those files: -iodir
}

func registerFile(path string) {
	ioFiles.Lock()
	defer ioFiles.Unlock()
	if ioFiles.paths == nil {
		ioFiles.paths, ioFiles.dirs = map[string]bool{}, map[string]bool{}
	}
	ioFiles.paths[path] = true
	// Every rank registers its -iodir probe first, so every rank knows the
	// directory and can remove the files of ranks the launcher kills.
	ioFiles.dirs[filepath.Dir(path)] = true
}

func unregisterFile(path string) {
	ioFiles.Lock()
	defer ioFiles.Unlock()
	delete(ioFiles.paths, path)
}

// RemoveFiles deletes every benchmark file this process still has; the
// signal handler calls it, from its own goroutine, before exiting. MPI
// cannot be called then, so it uses os.Remove. It first stops this
// package's MPI-IO calls from creating files, then removes the files and
// the helper files MPI-IO libraries keep next to them, and does so again
// after removeDelay, so that a file an MPI_File_open in progress created
// again goes too.
//
// Every rank waits that long, even one without files: launchers end the
// ranks still running as soon as one exits (Open MPI's mpirun, which
// passes a signal on as SIGTERM, with SIGKILL; MPICH's mpiexec with
// SIGHUP), and the wait leaves the other ranks the time to remove theirs.
func RemoveFiles() {
	mpi.HaltFileCreation()
	for pass := 0; pass < 2; pass++ {
		if pass > 0 {
			time.Sleep(removeDelay)
		}
		ioFiles.Lock()
		for p := range ioFiles.paths {
			removeWithHelpers(p)
		}
		for d := range ioFiles.dirs {
			removeRunFiles(d)
		}
		ioFiles.Unlock()
	}
}

// removeDelay is the pause between RemoveFiles' two passes.
const removeDelay = 100 * time.Millisecond

// removeWithHelpers removes path and the files an MPI-IO library made for
// it in the same directory: the shared file pointer files of ROMIO
// (".<name>.shfp.*") and of Open MPI's lockedfile component
// ("<name>-*.lock"), and the probes of Open MPI's locking test
// ("<name>.locktest.*").
// Best effort: it runs in cleanups, where other ranks may have removed
// the same files and no error could be told.
func removeWithHelpers(path string) {
	_ = os.Remove(path)
	dir, base := filepath.Split(path) // dir is "" or ends with a separator
	dir, name := globQuote(dir), globQuote(base)
	for _, pat := range []string{"." + name + ".shfp.*", name + "-*.lock", name + ".locktest.*"} {
		matches, _ := filepath.Glob(dir + pat)
		for _, m := range matches {
			_ = os.Remove(m) // best effort, as above
		}
	}
}

// removeRunFiles removes every IMB-IO file in dir, also those of other
// ranks: the launcher may kill a rank before it has removed its own. A
// name starting with FileName in -iodir is IMB-IO's by definition (IMB
// deletes any such file before it uses the name), so nothing else goes.
func removeRunFiles(dir string) {
	d := globQuote(dir) + string(filepath.Separator)
	for _, pat := range []string{FileName + "*", "." + FileName + "*"} {
		matches, _ := filepath.Glob(d + pat)
		for _, m := range matches {
			_ = os.Remove(m) // best effort, as above
		}
	}
}

// deleteIfExists is mpi.DeleteFileIfExists for a file of this user only.
// The delete opens the file with MPI_MODE_CREATE, which follows a link
// planted under the name in a shared -iodir and may create its target;
// so a name that is a link, or not a regular file of this user, is
// refused. (A link planted between the check and the open is still
// followed, but the open neither truncates nor writes, and what it may
// create is an empty private file; the close removes the link.)
func deleteIfExists(path string) error {
	if err := safefile.Check(path); err != nil {
		// An error of this process alone, as a failed MPI_File_open is:
		// the command then ends the job at once instead of leaving the
		// other processes waiting for this one.
		return &mpi.LocalError{Err: err}
	}
	if err := mpi.DeleteFileIfExists(path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// globQuote escapes the glob metacharacters of s.
func globQuote(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(s)
}

// CalibrateCPU runs CPU_Exploit's calibration for target seconds and
// returns the time it takes undisturbed (t_CPU) and its Mflop/s rate.
func CalibrateCPU(target float64) (secs, mflops float64) {
	return kernel.CalibrateCPUExploit(target)
}

// checkIODir makes sure this rank can create files in dir through MPI-IO:
// it creates and deletes a probe file as the benchmarks will.
func checkIODir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("-iodir %s: no such directory", dir)
	case err != nil:
		return fmt.Errorf("-iodir %s: %v", dir, errors.Unwrap(err))
	case !st.IsDir():
		return fmt.Errorf("-iodir %s: not a directory", dir)
	}
	probe := filepath.Join(dir, fmt.Sprintf(".mpibench-probe-%d-%d", mpi.World().Rank(), os.Getpid()))
	registerFile(probe)
	defer unregisterFile(probe)
	if err := deleteIfExists(probe); err != nil {
		_ = os.Remove(probe) // the error told is the one above
		return fmt.Errorf("-iodir %s: cannot create files there through MPI-IO (%v)", dir, err)
	}
	return nil
}
