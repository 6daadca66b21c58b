package imb

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"mpibench/e2e"
	"mpibench/suites/imb/kernel"
)

// imbFault is one IMB suite's small run for the fault tests: the
// benchmarks and lengths, and the case a rank gets stuck in.
type imbFault struct {
	suite string
	args  []string // benchmarks and options after the suite's name
	stuck string   // key of the case the fault hits
	cases int      // cases of the whole run (records with -multi off)
	iodir bool     // the suite writes files into an -iodir
}

func imbFaults(t *testing.T) []imbFault {
	lens := e2e.Lengths(t, 0, 1024, 65536)
	f := []imbFault{
		{suite: "mpi1", args: []string{"-msglen", lens, "PingPong", "Sendrecv", "Barrier"},
			stuck: "mpi1/Sendrecv/np2/1024", cases: 3 + 3 + 1},
		{suite: "ext", args: []string{"-msglen", lens, "Unidir_Put", "Accumulate"},
			stuck: "ext/Unidir_Put/np2/non-aggregate/1024", cases: 6 + 6},
		{suite: "io", args: []string{"-msglen", lens, "S_Write_Indv", "C_Read_Expl"},
			stuck: "io/S_Write_Indv/np1/non-aggregate/65536", cases: 6 + 6, iodir: true},
		{suite: "rma", args: []string{"-msglen", lens, "Unidir_put", "All_get_all"},
			stuck: "rma/Unidir_put/np2/non-aggregate/1024", cases: 6 + 3},
		// A benchmark and a _pure variant: the overlapped sample (two
		// loops and the CPU work) and the plain one.
		{suite: "nbc", args: []string{"-msglen", lens, "Ibcast", "Ireduce_pure"},
			stuck: "nbc/Ibcast/np2/non-blocking/1024", cases: 3 + 3},
	}
	if kernel.PersistAPI() != "" { // else mpi4 measures nothing (TestMPI4Missing)
		f = append(f, imbFault{suite: "mpi4", args: []string{"-msglen", lens, "Bcast_persist", "Reduce_persist_pure"},
			stuck: "mpi4/Reduce_persist_pure/np2/65536", cases: 3 + 3})
	}
	return f
}

// command is the run's command line with results file out and, for
// IMB-IO, the directory dir. -iter 10 (IMB-IO has no -iter, and its
// own counts are small): the cases before the stuck one must end well
// within the watchdog's 2 s. Under MPICH's busy-polling ranks on a
// loaded machine each synchronisation can cost a scheduler time slice:
// at IMB's 1000 repetitions nbc's Ibcast of 0 bytes did not end in 2 s,
// and at 50, once in CI, neither did ext's non-aggregate Unidir_Put of
// 0 bytes (100 fences; 2 ms unloaded).
func (f imbFault) command(out, dir string) []string {
	args := []string{f.suite, "-json", out}
	if f.iodir {
		args = append(args, "-iodir", dir)
	} else {
		args = append(args, "-iter", "10")
	}
	return append(args, f.args...)
}

// TestIMBWatchdog: a case stuck on one rank (rank 1, or rank 0, which
// keeps the journal) ends the job through the watchdog with exit code 4;
// the message names the case, the journal marks it hung, the finished
// cases are in the results file, and IMB-IO leaves no file behind.
func TestIMBWatchdog(t *testing.T) {
	for i, f := range imbFaults(t) {
		t.Run(f.suite, func(t *testing.T) {
			out, dir := e2e.FaultDirs(t)
			rank := i % 2
			r := e2e.HangRun(t, 2, rank, f.stuck, out, f.command(out, dir)...)
			name := strings.Split(f.stuck, "/")[1]
			if !strings.Contains(r.Stderr, " in "+name+", ") {
				t.Errorf("the watchdog message does not name %s\n%s", name, r)
			}
			data, _ := os.ReadFile(out + ".state")
			if done := strings.Count(string(data), "done "); done == 0 || len(e2e.ReadRecords(t, out)) != done {
				t.Errorf("%d records for %d finished cases:\n%s", len(e2e.ReadRecords(t, out)), done, data)
			}
			if f.iodir {
				e2e.AssertEmpty(t, dir)
			}
		})
	}
}

// TestIMBKillResume: kill -9 of rank 1 while it is in a case; the
// launcher ends the job, the finished cases stay, and -resume (after a
// crash that cut the last line short) measures the rest: every case once.
func TestIMBKillResume(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	for _, f := range imbFaults(t) {
		t.Run(f.suite, func(t *testing.T) {
			out, dir := e2e.FaultDirs(t)
			// Rank 1 stops in the case, so that the kill finds it there.
			e2e.SetFault(t, "hang:1:"+f.stuck)
			e2e.KillAt(t, 2, out, "start "+f.stuck, append(f.command(out, dir), "-timeout", "0")...)
			before := len(e2e.ReadRecords(t, out))
			if before == 0 || before >= f.cases || e2e.StateHas(out, "done "+f.stuck) {
				t.Fatalf("after the kill: %d of %d records", before, f.cases)
			}
			e2e.AppendText(t, out, `{"suite":"`+f.suite+`","bench`)

			e2e.SetFault(t, "")
			r := e2e.Launch(t, 2, append(f.command(out, dir), "-resume")...)
			e2e.MustSucceed(t, r)
			if !strings.Contains(r.Stderr, "warning: skipped unreadable line") ||
				!strings.Contains(r.Stderr, fmt.Sprintf("%d finished cases kept", before)) {
				t.Errorf("resume should warn about the half line and keep %d cases:\n%s", before, r.Stderr)
			}
			e2e.AssertOncePerCase(t, out, f.cases)
			if f.iodir {
				e2e.AssertEmpty(t, dir)
			}
			if f.suite == "mpi1" {
				matchTables(t, r.Stdout, e2e.ReadRecords(t, out), -1, false)
			}
		})
	}
}

// TestIMBInterrupt: SIGTERM to one rank or SIGINT to every rank while a
// case runs: the finished records are kept, IMB-IO's files are removed,
// and the ranks exit with 128 + the signal.
func TestIMBInterrupt(t *testing.T) {
	for _, f := range imbFaults(t) {
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
			t.Run(f.suite+"/"+sig.String(), func(t *testing.T) {
				out, dir := e2e.FaultDirs(t)
				e2e.SetFault(t, "hang:1:"+f.stuck)
				rank := -1
				if sig == syscall.SIGTERM {
					rank = 1
				}
				r := e2e.SignalAt(t, 2, out, "start "+f.stuck, sig, rank, append(f.command(out, dir), "-timeout", "0")...)
				want := 128 + int(sig)
				// MPICH's mpiexec ends the other ranks with SIGHUP once one
				// has exited, and may report that or 0/1 instead.
				if r.Code != want && e2e.LauncherKind() == "openmpi" {
					t.Errorf("exit code %d, want %d\n%s", r.Code, want, r)
				}
				if !strings.Contains(r.Stderr, "interrupted by") {
					t.Errorf("no interruption notice\n%s", r)
				}
				data, _ := os.ReadFile(out + ".state")
				if done := strings.Count(string(data), "done "); done == 0 || len(e2e.ReadRecords(t, out)) != done {
					t.Errorf("%d records for %d finished cases", len(e2e.ReadRecords(t, out)), done)
				}
				if f.iodir {
					e2e.AssertEmpty(t, dir)
				}
			})
		}
	}
}
