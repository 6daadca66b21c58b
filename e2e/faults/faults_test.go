package faults

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"mpibench/e2e"
	"mpibench/run/mpijob"
	"mpibench/suites/beff"
	"mpibench/suites/beffio"
	"mpibench/suites/imb"
	"mpibench/suites/links"
	"mpibench/suites/osu"
	"mpibench/suites/p2p"
	"mpibench/suites/skampi"
)

// faultCase is one row of docs/faults.md's table of bad inputs and faults:
// the test runs it and checks the exit code and the message, and checks
// that the table's row says the same, so the table stays true.
type faultCase struct {
	id    string
	np    int               // ranks under mpirun; 0 runs the binary alone (no MPI)
	args  []string          // {dir} stands for a fresh directory holding files
	files map[string]string // created in {dir} first
	links map[string]string // symbolic links created in {dir}: name -> target
	env   []string          // KEY=VALUE set for the run
	// mutant runs the mutant binary playing this broken kernel.
	mutant string
	// signal is sent to rank 1 once the journal {dir}/r.jsonl.state has
	// the line mark; 0 for none.
	signal syscall.Signal
	mark   string
	code   int
	msg    string // a part of what rank 0 prints on stderr
}

var faultCases = []faultCase{
	{id: "F1", np: 2, args: []string{"mpi1", "Pingpang"}, code: 2,
		msg: `unknown mpi1 benchmark "Pingpang"; valid names (case-insensitive)`},
	{id: "F2", np: 2, args: []string{"mpi1", "-msglen", "{dir}/lens.txt"}, files: map[string]string{"lens.txt": "12\nabc\n"},
		code: 2, msg: `lens.txt:2: "abc" is not a message length`},
	{id: "F3", np: 2, args: []string{"mpi1", "-map", "3x3"}, code: 2, msg: "-map 3x3 numbers 9 processes, but the job has 2"},
	{id: "F4", np: 2, args: []string{"ext", "-npmin", "0"}, code: 2, msg: `-npmin "0": want an integer >= 1`},
	{id: "F5", np: 2, args: []string{"io", "-iodir", "{dir}/missing"}, code: 2, msg: "missing: no such directory"},
	{id: "F6", np: 2, args: []string{"beff", "-mem", "0"}, code: 2, msg: `invalid value "0" for flag -mem`},
	{id: "F7", np: 2, args: []string{"beffio", "-T", "-1"}, code: 2, msg: `invalid value "-1" for flag -T`},
	{id: "F8", np: 2, args: []string{"skampi", "-config", "{dir}/bad.ski"}, files: map[string]string{"bad.ski": "measure X pingpong Nope bytes 1..4\n"},
		code: 2, msg: `bad.ski:1: operation "Nope" of pingpong`},
	{id: "F9", np: 0, args: []string{"guidelines", "check", "{dir}/none"}, code: 2, msg: "no such file or directory"},
	{id: "F10", np: 2, args: []string{"mpi1", "-msglen", "{dir}/lens.txt", "Alltoall"}, files: map[string]string{"lens.txt": "4194304\n"},
		env: []string{e2e.FakeMemEnv + "=1"}, code: 2, msg: "Alltoall at 4194304 bytes on 2 processes needs 16.0 MiB per process"},
	{id: "F11", np: 2, args: []string{"io", "-check", "-msglen", "{dir}/lens.txt", "-iodir", "{dir}", "S_Write_Expl"},
		files: map[string]string{"lens.txt": "4\n"}, mutant: "io-offset", code: 3, msg: "-check found defects in S_Write_Expl"},
	{id: "F12", np: 0, args: []string{"report", "{dir}/r.jsonl", "-o", "{dir}/r.html"}, files: map[string]string{"r.jsonl": "{\"suite\":\"mpi1\",\"benchm"},
		code: 2, msg: "r.jsonl:1:"},
	{id: "F13", np: 2, args: []string{"mpi1", "-timeout", "2", "PingPong"},
		env:  []string{e2e.FaultEnv + "=hang:1:mpi1/PingPong/np2/1024"},
		code: 4, msg: "waited more than 2s in PingPong, 1024 bytes, 2 processes"},
	{id: "F14", np: 2, args: []string{"mpi1", "-timeout", "soon"}, code: 2,
		msg: `-timeout "soon": want seconds, 0 to 1000000 (0 turns the watchdog off)`},
	{id: "F15", np: 2, args: []string{"mpi1", "-resume"}, code: 2,
		msg: "-resume: needs the results file of the run to resume (-json FILE)"},
	{id: "F16", np: 2, args: []string{"mpi1", "-json", "{dir}/r.jsonl"}, links: map[string]string{"r.jsonl": "{dir}/victim"},
		code: 2, msg: "r.jsonl is a symbolic link; mpibench does not write through links"},
	{id: "F17", np: 2, args: []string{"mpi1", "-json", "{dir}/r.jsonl", "-timeout", "0", "PingPong"},
		env:    []string{e2e.FaultEnv + "=hang:1:mpi1/PingPong/np2/1024"},
		signal: syscall.SIGTERM, mark: "start mpi1/PingPong/np2/1024",
		code: 143, msg: "interrupted by terminated; finished records are kept"},
	{id: "F18", np: 2, args: []string{"mpi1", "-json", "{dir}/r.jsonl", "-resume", "-msglen", "{dir}/lens.txt", "PingPong"},
		files: map[string]string{"lens.txt": "8\n", "r.jsonl": "{\"suite\":\"mpi1\",\"benchm", "r.jsonl.state": "start mpi1/PingPong/np2/8\n"},
		code:  0, msg: "warning: skipped unreadable line"},
	{id: "F19", np: 2, args: []string{"mpi1", "-json", "{dir}/r.jsonl", "-resume", "Sendrecv"},
		files: map[string]string{
			"r.jsonl":       `{"suite":"mpi1","benchmark":"PingPong","case":"K","context":{"procs":2,"args":["mpi1","PingPong"]}}` + "\n",
			"r.jsonl.state": "start K\ndone K 1\n"},
		code: 2, msg: `-resume: the file holds a run of "mpi1 PingPong" on 2 processes, this is`},
	{id: "F20", np: 2, args: []string{"ext", "-json", "{dir}/r.jsonl", "-resume"},
		files: map[string]string{"r.jsonl": `{"suite":"mpi1","benchmark":"PingPong","case":"K"}` + "\n"},
		code:  2, msg: "r.jsonl holds 1 records but its journal"},
	{id: "F21", np: 0, args: []string{"report", "{dir}/r.jsonl", "-o", "{dir}/./r.jsonl"},
		files: map[string]string{"r.jsonl": `{"suite":"mpi1","benchmark":"PingPong"}` + "\n"},
		code:  2, msg: "r.jsonl is also an input of this run"},
	{id: "F22", np: 2, args: []string{"skampi", "-config", "{dir}/c.ski", "-o", "{dir}/c.jsonl"},
		files: map[string]string{"c.ski": "measure A pingpong Send_Recv bytes 1..4 maxreps=90000000000\n"},
		code:  2, msg: `c.ski:1: option maxreps="90000000000": "90000000000": want an integer from 1 to 10000000`},
	{id: "F23", np: 2, args: []string{"guidelines", "measure", "-calls", "MPI_Bcast", "-sizes", "16", "-reps", "9000000000000000000", "-o", "{dir}"},
		code: 2, msg: "-reps 9000000000000000000: want 1 to 10000000 repetitions"},
	{id: "F24", np: 2, args: []string{"beffio", "-T", "99999999999"}, code: 2,
		msg: `invalid value "99999999999" for flag -T: want a number of seconds greater than 0, at most 1000000`},
	{id: "F25", np: 0, args: []string{"report", "{dir}/r.jsonl", "-format", "png", "-o", "{dir}/link"},
		files: map[string]string{"r.jsonl": `{"suite":"mpi1","benchmark":"PingPong"}` + "\n"},
		links: map[string]string{"link": "{dir}/elsewhere"},
		code:  2, msg: "link is a symbolic link; mpibench does not write through links"},
	{id: "F26", np: 2, args: []string{"mpi1", "-msglen", "{dir}/lens.txt", "PingPong"},
		files: map[string]string{"lens.txt": "4096\n"}, mutant: "mpi-error", code: 1,
		msg: "mpibench mpi1: rank 1: PingPong (warm-up), 4096 bytes, 2 processes: MPI_Send: "},
	{id: "FD1", np: 2, args: []string{"beffio", "-T", "2", "-mem", "16", "-disk", "20M", "-iodir", "{dir}"}, code: 2,
		msg: "needs up to 70.3 MiB (73687664 bytes) of files in"},
	{id: "FD2", np: 2, args: []string{"io", "-disk", "10M", "-iodir", "{dir}", "P_Write_Indv"}, code: 2,
		msg: "-disk allows 10.0 MiB (10485760 bytes) (nothing was written)"},
	{id: "FD3", np: 2, args: []string{"beffio", "-disk", "12X"}, code: 2,
		msg: `invalid value "12X" for flag -disk: "12X": want a number of bytes of at least 1 with an optional suffix K, M, G, T or P`},
}

func TestFaultTable(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	rows := faultRows(t)
	for _, c := range faultCases {
		t.Run(c.id, func(t *testing.T) {
			r := faultRun(t, c)
			e2e.NoPanic(t, r)
			// MPICH's mpiexec reports an interrupted job its own way.
			codeOK := r.Code == c.code || (c.signal != 0 && e2e.LauncherKind() != "openmpi")
			if !codeOK || !strings.Contains(r.Stderr, c.msg) {
				t.Errorf("want exit %d and %q on stderr, got %s", c.code, c.msg, r)
			}
			row, ok := rows[c.id]
			switch {
			case !ok:
				t.Errorf("docs/faults.md has no row %s", c.id)
			case !strings.Contains(row[2], c.msg) || row[3] != strconv.Itoa(c.code):
				t.Errorf("docs/faults.md row %s says %q, exit %s; the run gives %q, exit %d", c.id, row[2], row[3], c.msg, c.code)
			}
		})
	}
	if len(rows) != len(faultCases) {
		t.Errorf("docs/faults.md's fault table has %d rows, the test %d", len(rows), len(faultCases))
	}
}

// parsers are the commands that run under MPI, by name, for the rows
// that their command line alone decides.
var parsers = func() map[string]func(args []string, size int) error {
	m := map[string]func([]string, int) error{"mpi4": imb.MPI4Command().Check}
	for _, s := range imb.Suites {
		m[s.Name] = s.Command().Check
	}
	for _, s := range []mpijob.Entry{beff.Command, beffio.Command, skampi.Command, p2p.Command, osu.Command,
		links.Command} {
		m[s.Name] = s.Check
	}
	return m
}()

// parsed is the outcome of a row whose command line the job refuses
// before anything runs: its command reads the line in process as rank 0
// does (mpijob.Command.Check), and the message is the one every rank
// exits 2 with. ok is false for a row that needs the job.
func parsed(c faultCase, args []string) (e2e.Result, bool) {
	check := parsers[args[0]]
	if c.np == 0 || c.code != 2 || c.env != nil || c.mutant != "" || c.signal != 0 || check == nil {
		return e2e.Result{}, false
	}
	err := check(args[1:], c.np)
	if err == nil {
		return e2e.Result{}, false
	}
	return e2e.Result{Code: 2, Stderr: err.Error() + "\n"}, true
}

// faultRun prepares the case's files and environment and runs it: in
// process where the command line decides it, else as a user would.
func faultRun(t *testing.T, c faultCase) e2e.Result {
	dir := t.TempDir()
	for name, text := range c.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range c.env {
		k, v, _ := strings.Cut(kv, "=")
		if k == e2e.FaultEnv || k == e2e.FakeMemEnv {
			e2e.UseMutant(t) // the hooks of the mutant build
		}
		t.Setenv(k, v)
	}
	for name, target := range c.links {
		if err := os.Symlink(strings.ReplaceAll(target, "{dir}", dir), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.ReplaceAll(a, "{dir}", dir)
	}
	if r, ok := parsed(c, args); ok {
		return r
	}
	switch {
	case c.np == 0:
		return e2e.Direct(t, args...)
	case c.signal != 0:
		return e2e.SignalAt(t, c.np, filepath.Join(dir, "r.jsonl"), c.mark, c.signal, 1, args...)
	case c.mutant != "":
		t.Setenv(e2e.MutantEnv, c.mutant)
		return e2e.LaunchBin(t, e2e.MutantBinary(t), c.np, args...)
	}
	return e2e.Launch(t, c.np, args...)
}

// faultRows reads docs/faults.md's fault table: rows "| F1 | ... | ... | 2 |"
// between the markers, the message cell without its backquotes.
func faultRows(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "faults.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "<!-- faults -->")
	section, _, ok2 := strings.Cut(section, "<!-- /faults -->")
	if !ok || !ok2 {
		t.Fatal("docs/faults.md lacks the <!-- faults --> ... <!-- /faults --> table")
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 4 || !strings.HasPrefix(strings.TrimSpace(cells[0]), "F") {
			continue
		}
		for i := range cells {
			cells[i] = strings.ReplaceAll(strings.TrimSpace(cells[i]), "`", "")
			cells[i] = strings.ReplaceAll(cells[i], `\|`, "|")
		}
		if _, dup := rows[cells[0]]; dup {
			t.Errorf("docs/faults.md: row %s twice", cells[0])
		}
		rows[cells[0]] = cells
	}
	return rows
}

// TestLauncherMismatch starts the binary with the other library's
// launcher (issue 26): every process is a job of its own there, and each
// once said that the job was too small. One process now names the
// mismatch, and every one exits 2.
func TestLauncherMismatch(t *testing.T) {
	e2e.NeedMPI(t)
	other := map[string][]string{
		"openmpi": {"mpiexec.mpich", "-np", "2"},
		"mpich":   {"mpirun.openmpi", "--oversubscribe", "-np", "2"},
	}[e2e.LauncherKind()]
	if other == nil {
		t.Fatalf("launcher kind %q: no other library's launcher to try", e2e.LauncherKind())
	}
	if other[0] == "mpirun.openmpi" && os.Geteuid() == 0 {
		other = append(other, "--allow-run-as-root")
	}
	path, err := exec.LookPath(other[0])
	if err != nil {
		t.Fatalf("the other library's launcher: %v (scripts/setup.sh installs both)", err)
	}
	r := e2e.Execute(t, e2e.MpirunTimeout, path, append(other[1:], e2e.Bin(), "mpi1", "PingPong", "-msglog", "0:1")...)
	e2e.NoPanic(t, r)
	if r.Code == 0 {
		t.Fatalf("want a non-zero exit, got %s", r)
	}
	want := map[string]string{"openmpi": "started by MPICH's launcher", "mpich": "started by Open MPI's launcher"}[e2e.LauncherKind()]
	if n := strings.Count(r.Stderr, want); n != 1 {
		t.Errorf("want %q once on stderr, got it %d times:\n%s", want, n, r)
	}
	if strings.Contains(r.Stderr, "but the job has") || strings.Contains(r.Stdout, "Benchmarking") {
		t.Errorf("a process went on as a job of its own:\n%s", r)
	}
}

// TestReplaceSaysSo: a run into a results file that holds an earlier run
// replaces it, and says so once (issue 26: four launches into one file
// kept only the last, without a word); with -append it adds its run
// after the earlier one, which stays byte for byte.
func TestReplaceSaysSo(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	args := []string{"mpi1", "PingPong", "-msglog", "0:1", "-json", out}
	first := e2e.Launch(t, 2, args...)
	e2e.MustSucceed(t, first)
	if strings.Contains(first.Stderr, "replaces") {
		t.Errorf("a new file: %s", first)
	}
	second := e2e.Launch(t, 2, args...)
	e2e.MustSucceed(t, second)
	if n := strings.Count(second.Stderr, "the file holds an earlier run"); n != 1 {
		t.Errorf("want the note once, got it %d times: %s", n, second)
	}
	// -append adds a launch after it instead, and says nothing.
	before, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	third := e2e.Launch(t, 2, append(args, "-append")...)
	e2e.MustSucceed(t, third)
	after, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(after), string(before)) || strings.Count(string(after), `"schema"`) != 2 ||
		strings.Contains(third.Stderr, "replaces") {
		t.Errorf("-append: want the earlier run kept and a second header:\n%s\n%s", after, third)
	}
	both := e2e.Launch(t, 2, append(args, "-append", "-resume")...)
	if both.Code != 2 || !strings.Contains(both.Stderr, "-append and -resume") {
		t.Errorf("-append -resume: %s", both)
	}
}
