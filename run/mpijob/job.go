// Package mpijob runs one mpibench command as an MPI job: help, MPI_Init
// and Finalize, the command line parsed on rank 0 and agreed by every rank,
// the results file (journal) and -resume, the run context of every record,
// signals and cleanups, the watchdog, and one exit code on every rank.
package mpijob

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/internal/safefile"
	"mpibench/mpi"
	"mpibench/run/cases"
	"mpibench/run/journal"
	"mpibench/run/progress"
)

// Command is what differs between the commands that run under MPI;
// Run does the rest the same way for all of them.
type Command[C any] struct {
	Name  string // "io", "beff": in messages and in every record's Args
	Usage string // printed for -h
	// Help, when set, makes the usage instead, only when -h asks for it:
	// IMB's is long and computed, and every rank builds every command's
	// entry to find its own, whose garbage stays resident (no
	// collection runs in a benchmark's life; docs/faults.md, "Memory check").
	Help func() string
	// parse reads the command line on rank 0 for size processes and
	// returns the config and its results file ("" for none), the journal
	// of the run. Its error is a usage error: every rank exits with 2. The
	// common flags (-timeout, -resume) are taken out before; resume says
	// whether -resume was given (which file PGMPI's measure continues).
	Parse func(args []string, size int, resume bool) (cfg C, jsonPath string, err error)
	// OutFlag names the results file's flag in messages; "" is
	// cli.ResultsFlag (-json).
	OutFlag string
	// run measures with the config every rank agreed on and returns the
	// exit code.
	Run func(cfg C, env *Env) int
}

// Env is what a command's run function gets besides its config.
type Env struct {
	Name   string
	World  mpi.Comm
	Ctx    result.Context
	Stdout io.Writer // written by rank 0 only
	Stderr io.Writer
	// journal is the results file on rank 0; nil on the others or without
	// one. Records of measured cases go through Cases.Finish, computed
	// ones (summaries) through journal.Write.
	Journal *journal.Journal
	Cases   *cases.Recorder
	Resumed *journal.Resumed // -resume: on rank 0 where the kept Records stand, elsewhere the keys; nil for a fresh run
}

// Run runs one command under MPI: help, MPI_Init and Finalize, the
// command line agreed by every rank, the -json file, signal handling, and
// the run itself. Every rank exits with the same code.
func Run[C any](c Command[C], args []string, stdout, stderr io.Writer) (code int) {
	if HasHelp(args) {
		return help(c, stdout, stderr)
	}
	level, err := threadLevel(args)
	if err == nil {
		err = launcherMismatch(mpi.Flavor, os.Getenv)
	}
	if err != nil {
		// Every rank parsed the same argv and has the same environment,
		// so every rank stops here; the launcher's rank 0 says why.
		if LauncherRank() == "0" {
			_, _ = fmt.Fprintf(stderr, "mpibench %s: %v\n", c.Name, err)
		} else {
			// Open MPI's mpirun kills the job when its first process
			// exits non-zero: the others wait, so that rank 0 has said
			// why before it is killed.
			time.Sleep(time.Second)
		}
		return 2
	}
	if err := mpi.Init(level); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench: %v\n", err)
		if errors.Is(err, mpi.ErrNoMPI) {
			return 2 // a binary built without MPI: a usage error, before anything ran
		}
		return 1
	}
	world := mpi.World()
	defer func() {
		if p := recover(); p != nil {
			runCleanups()
			_, _ = fmt.Fprintf(stderr, "mpibench: rank %d: internal error: %v\n", world.Rank(), p)
			abortJob(1)
		}
		if err := mpi.Finalize(); err != nil && code == 0 {
			_, _ = fmt.Fprintf(stderr, "mpibench: %v\n", err)
			code = 1
		}
	}()
	cfg, a, err := agree(c, world, args)
	if cli.IsUsage(err) {
		if world.Rank() == 0 {
			_, _ = fmt.Fprintf(stderr, "mpibench %s: %v\n", c.Name, err)
		}
		return 2
	}
	if err != nil {
		return fail(world, stderr, err)
	}
	if a.journal != nil {
		OnInterrupt(a.journal.Discard)
	}
	if a.replacing != "" {
		_, _ = fmt.Fprintf(stderr, "mpibench %s: note: %s\n", c.Name, a.replacing)
	}
	stop := cleanupOnSignal(stderr)
	defer stop()
	ctx, err := runContext(world, append([]string{c.Name}, args...))
	if err != nil {
		if a.journal != nil {
			// The run failed already: that is the error to tell.
			_ = a.journal.Close()
		}
		return fail(world, stderr, err)
	}
	env := &Env{Name: c.Name, World: world, Ctx: ctx, Stdout: stdout, Stderr: stderr, Journal: a.journal,
		Resumed: a.resumed}
	env.Cases = cases.New(cases.Options{Name: c.Name, Rank: world.Rank(), Timeout: a.Timeout, Journal: a.journal,
		Resumed: a.resumed, Fault: a.fault, Progress: a.Progress, Stderr: stderr, Cleanup: hungCleanup, Abort: abortJob})
	defer env.Cases.Close()
	env.Stderr = env.Cases.Stderr() // clears the progress line before a message
	return endJournal(world, stderr, a.journal, c.Run(cfg, env))
}

// endJournal closes the results file after the run, whose exit code is
// code: a failed close (a file system may report a lost write only there)
// fails the run on every rank.
func endJournal(world mpi.Comm, stderr io.Writer, j *journal.Journal, code int) int {
	var err error
	if j != nil {
		if err = j.Close(); err != nil {
			_, _ = fmt.Fprintf(stderr, "mpibench: closing the results file: %v\n", err)
		}
	}
	ok, aerr := AgreeOK(world, err == nil)
	switch {
	case aerr != nil:
		return fail(world, stderr, aerr)
	case !ok && code == 0:
		return 1
	}
	return code
}

// help prints the usage on the launcher's rank 0 (every rank has -h);
// a failed write is exit code 1 there.
func help[C any](c Command[C], stdout, stderr io.Writer) int {
	if LauncherRank() != "0" {
		return 0
	}
	usage := c.Usage
	if c.Help != nil {
		usage = c.Help()
	}
	if _, err := fmt.Fprint(stdout, usage+commonUsage); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench %s: writing the help: %v\n", c.Name, err)
		return 1
	}
	return 0
}

// threadLevel reads -thread_level from the command line before MPI_Init,
// when nothing can be broadcast yet: every rank reads the same argv. Other
// errors in the common flags are left to agree, which reports them once.
func threadLevel(args []string) (mpi.ThreadLevel, error) {
	c, _, err := splitCommon(args)
	if err != nil && strings.HasPrefix(err.Error(), "-thread_level") {
		return 0, err
	}
	if err != nil {
		c.thread = defaultThreadLevel
	}
	return mpi.ParseThreadLevel(c.thread)
}

// agreed is what rank 0 broadcasts after reading the command line: the
// config and the run's common settings, or the error every rank exits
// with.
type agreed[C any] struct {
	Err     string        `json:"err,omitempty"`
	Config  C             `json:"config"`
	Timeout time.Duration `json:"timeout"` // cases.Options.Timeout
	// Progress is -progress; only rank 0 shows it.
	Progress progress.Mode `json:"progress"`
	Resumed  *resumedKeys  `json:"resumed,omitempty"`

	journal *journal.Journal // rank 0
	resumed *journal.Resumed // rank 0: all of it; elsewhere the keys
	fault   *cases.Fault
	// replacing is what rank 0 says of a results file this run replaces
	// (issue 26: four launches into one file kept the last, silently).
	replacing string
}

// resumedKeys is what the other ranks learn of a resumed journal.
type resumedKeys struct {
	Done, Crashed, Hung []string
}

// agree parses the command line on rank 0, opens (or resumes) the journal
// there and broadcasts the outcome, so that every rank runs the same
// config, skips the same cases, or exits with the same usage error.
func agree[C any](c Command[C], world mpi.Comm, args []string) (C, *agreed[C], error) {
	mine := &agreed[C]{}
	a, err := Share(world, func() *agreed[C] {
		mine = agreeRoot(c, world.Size(), args)
		return mine
	})
	if a == nil {
		a = &agreed[C]{}
	}
	if err == nil && a.Err != "" {
		err = cli.Usagef("%s", a.Err)
	}
	a.journal, a.resumed, a.replacing = mine.journal, mine.resumed, mine.replacing
	if a.resumed == nil && a.Resumed != nil {
		a.resumed = &journal.Resumed{Done: a.Resumed.Done, Crashed: a.Resumed.Crashed, Hung: a.Resumed.Hung}
	}
	if err == nil {
		// The fault is read on every rank: the launcher passes the
		// environment to all of them, and rank 0 has checked it.
		a.fault, _ = cases.EnvFault()
	}
	return a.Config, a, err
}

// agreeRoot is rank 0's part of agree.
func agreeRoot[C any](c Command[C], size int, args []string) *agreed[C] {
	a := &agreed[C]{}
	common, rest, err := splitCommon(args)
	var path string
	if err == nil {
		a.Config, path, err = c.Parse(rest, size, common.resume)
	}
	if err == nil {
		_, err = cases.EnvFault()
	}
	if err == nil && path != "" {
		err = noClash(path, rest)
	}
	if err == nil {
		a.Timeout, a.Progress = common.timeout, common.progress
		same := sameRun(append([]string{c.Name}, rest...), size)
		err = a.openJournal(path, common, cmp.Or(c.OutFlag, cli.ResultsFlag), same)
	}
	if err != nil {
		if a.journal != nil {
			// The command line failed already: that is the error to tell.
			_ = a.journal.Close()
			a.journal = nil
		}
		a.Err = err.Error()
	}
	return a
}

// noClash refuses a results file that is also one of the run's input
// files (-msglen, -input, -config, -nrep): the journal would overwrite
// it. The argument that names the results file itself is passed over once.
func noClash(path string, args []string) error {
	var inputs []string
	skipped := false
	for _, a := range args {
		if a == path && !skipped {
			skipped = true
			continue
		}
		inputs = append(inputs, a)
	}
	for _, p := range []string{path, journal.StatePath(path)} {
		if err := safefile.Clash(p, inputs...); err != nil {
			return err
		}
	}
	return nil
}

// sameRun refuses to resume a results file written by another command
// line (apart from the common flags), thread level or process count: its
// cases would mix with this run's.
func sameRun(args []string, procs int) func(*journal.Resumed) error {
	return func(r *journal.Resumed) error {
		if r.Context == nil {
			return nil
		}
		ctx := *r.Context
		var was []string
		if len(ctx.Args) > 0 {
			_, rest, _ := splitCommon(ctx.Args[1:])
			was = append([]string{ctx.Args[0]}, rest...)
		}
		// The thread level changes the timings (docs/running.md, "Thread level").
		if now := mpi.Provided().String(); ctx.ThreadLevel != "" && ctx.ThreadLevel != now {
			return fmt.Errorf("the file holds a run at %s, this one runs at %s; resume with the same -thread_level",
				ctx.ThreadLevel, now)
		}
		if slices.Equal(was, args) && ctx.Procs == procs {
			return nil
		}
		return fmt.Errorf("the file holds a run of %q on %d processes, this is %q on %d; "+
			"resume with the same command line and process count", strings.Join(was, " "), ctx.Procs,
			strings.Join(args, " "), procs)
	}
}

// openJournal creates the results file path, or resumes it.
func (a *agreed[C]) openJournal(path string, common commonFlags, outFlag string, same func(*journal.Resumed) error) error {
	var err error
	resume := common.resume
	switch {
	case path == "" && resume:
		return fmt.Errorf("-resume: needs the results file of the run to resume (%s FILE)", outFlag)
	case path == "" && common.append:
		return fmt.Errorf("-append: needs the results file to add this run to (%s FILE)", outFlag)
	case common.append && resume:
		return fmt.Errorf("-append and -resume: a resumed run goes on in its own file; give one of them")
	case path == "":
		return nil
	case common.append:
		if a.journal, err = journal.Append(path); err != nil {
			return fmt.Errorf("%s: %w", outFlag, err)
		}
		return nil
	case !resume:
		if a.journal, err = journal.Create(path); err != nil {
			return fmt.Errorf("%s: %w", outFlag, err)
		}
		if st, err := os.Stat(path); err == nil && st.Size() > 0 {
			a.replacing = fmt.Sprintf("%s %s: the file holds an earlier run (%d bytes), which this run replaces; "+
				"give each launch its own file (compare takes several a side: OLD1 OLD2 ... vs NEW1 NEW2 ...)",
				outFlag, path, st.Size())
		}
		return nil
	}
	if a.journal, a.resumed, err = journal.Resume(path, same); err != nil {
		return fmt.Errorf("-resume: %w", err)
	}
	r := a.resumed
	a.Resumed = &resumedKeys{Done: r.Done, Crashed: r.Crashed, Hung: r.Hung}
	return nil
}

// runContext describes the run for every record; rank 0 gathers the hosts.
func runContext(world mpi.Comm, args []string) (result.Context, error) {
	names, err := world.GatherProcessorNames()
	if err != nil {
		return result.Context{}, err
	}
	var u syscall.Utsname
	_ = syscall.Uname(&u) // cannot fail on Linux; the fields stay empty if it did
	c := result.Context{
		Tool: Program + " " + Version, Start: time.Now().Format(time.RFC3339), Host: mpi.ProcessorName(),
		MPI: mpi.Flavor, MPIVersion: mpi.Version(), MPILibrary: mpi.LibraryVersion(),
		ThreadLevel: mpi.Provided().String(), Procs: world.Size(), Args: args,
		Machine: UtsString(u.Machine[:]), System: UtsString(u.Sysname[:]),
		Release: UtsString(u.Release[:]), Version: UtsString(u.Version[:]),
	}
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			c.Hosts = append(c.Hosts, n)
		}
	}
	return c, nil
}

// Uname is what uname -a prints: system, node, release, version,
// machine (and "GNU/Linux" on Linux, as coreutils adds); b_eff and
// b_eff_io print it in their protocol.
func Uname() string {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		return "unknown"
	}
	f := []string{UtsString(u.Sysname[:]), UtsString(u.Nodename[:]), UtsString(u.Release[:]),
		UtsString(u.Version[:]), UtsString(u.Machine[:])}
	if f[0] == "Linux" {
		f = append(f, "GNU/Linux")
	}
	return strings.Join(f, " ")
}

// UtsString is a field of syscall.Utsname as a string.
func UtsString(f []int8) string {
	var b strings.Builder
	for _, c := range f {
		if c == 0 {
			break
		}
		b.WriteByte(byte(c))
	}
	return b.String()
}

// fail handles an error met during the run. An error that all ranks agreed
// on (a failed write on rank 0) ends every rank with code 1; an error seen
// by one rank alone (mpi.EndsJob) may leave others blocked, so it aborts
// the job.
func fail(world mpi.Comm, stderr io.Writer, err error) int {
	if mpi.EndsJob(err) {
		abort(world, stderr, "mpibench", err)
	}
	if world.Rank() == 0 {
		_, _ = fmt.Fprintf(stderr, "mpibench: %v\n", err)
	}
	return 1
}

// abort ends the whole job after an error of this rank alone: the other
// ranks may be blocked in a collective. The cleanups of an interrupt run
// first, so that this rank leaves no benchmark file behind. The message
// goes out before them, and abortGrace after it: MPICH's launcher may drop
// what a rank wrote just before MPI_Abort (seen with mpiexec.hydra 4.0:
// the line of an mpi1 PingPong error lost once in a few runs, when no
// cleanup gave it time).
func abort(world mpi.Comm, stderr io.Writer, who string, err error) {
	t0 := time.Now()
	_, _ = fmt.Fprintf(stderr, "%s: rank %d: %v\n", who, world.Rank(), err)
	runCleanups()
	time.Sleep(abortGrace - time.Since(t0))
	abortJob(1)
}

// abortGrace is the least time between an aborting rank's message and
// MPI_Abort.
const abortGrace = 200 * time.Millisecond

// AgreeOK is true on every rank when ok is true on all of them: the
// verdict of every rank (can each create files, did any write fail),
// where Share passes on the decision of rank 0 alone.
func AgreeOK(world mpi.Comm, ok bool) (bool, error) {
	rank, err := Failed(world, !ok)
	return rank < 0, err
}

// Failed tells every rank which rank failed a check every rank made on
// its own: the highest failing one, or -1 when none did.
func Failed(world mpi.Comm, failed bool) (int, error) {
	bad := 0
	if failed {
		bad = world.Rank() + 1
	}
	n, err := world.AllreduceMax(bad)
	return n - 1, err
}

// Fail is fail with the command's name in an aborting rank's message.
func (e *Env) Fail(err error) int {
	if mpi.EndsJob(err) {
		return e.Abort(err)
	}
	return fail(e.World, e.Stderr, err)
}

// abort ends the job after an MPI error of this rank during the
// measurement.
func (e *Env) Abort(err error) int {
	abort(e.World, e.Stderr, "mpibench "+e.Name, err)
	return 1
}

// sink writes computed records (summaries, which belong to no measured
// case) to the results file; nil without one.
func (e *Env) Sink() func(*result.Record) error {
	if e.Journal == nil {
		return nil
	}
	return e.Journal.Write
}

// resumeNote tells the user on rank 0 what -resume found: warnings about
// unreadable lines, and what is skipped and measured again (last, with
// crashedLast).
func (e *Env) ResumeNote(crashedLast bool) {
	r := e.Resumed
	if r == nil || e.World.Rank() != 0 {
		return
	}
	for _, w := range r.Warnings {
		_, _ = fmt.Fprintf(e.Stderr, "mpibench %s: warning: skipped unreadable line %v\n", e.Name, w)
	}
	_, _ = fmt.Fprintf(e.Stderr, "mpibench %s: resuming %s: %d finished cases kept", e.Name, e.Journal.Path(), len(r.Done))
	if len(r.Crashed) > 0 {
		when := "in place"
		if crashedLast {
			when = "last"
		}
		_, _ = fmt.Fprintf(e.Stderr, ", unfinished ones measured again %s: %s", when, strings.Join(r.Crashed, " "))
	}
	if len(r.Hung) > 0 {
		_, _ = fmt.Fprintf(e.Stderr, ", %d hung skipped (%s)", len(r.Hung), strings.Join(r.Hung, " "))
	}
	_, _ = fmt.Fprintln(e.Stderr)
}

// finish ends a run whose records rank 0 has written with sink: rank 0
// renders the text, even when the -json file failed (the records are all
// in memory), and every rank exits with 1 when a write failed there.
func (e *Env) Finish(werr error, text func() error) int {
	if e.World.Rank() == 0 {
		if terr := text(); werr == nil {
			werr = terr
		}
	}
	ok, err := AgreeOK(e.World, werr == nil)
	if err != nil {
		return e.Fail(err)
	}
	if !ok {
		if werr != nil {
			_, _ = fmt.Fprintf(e.Stderr, "mpibench %s: %v\n", e.Name, werr)
		}
		return 1
	}
	return 0
}

// CheckCode shares rank 0's verdict of the check flag (-check, OSU's -c),
// the defects it found: 3 on every rank when there are any.
func CheckCode(world mpi.Comm, flag string, bad []string) int {
	bad, err := Share(world, func() []string { return bad })
	if err != nil {
		return fail(world, os.Stderr, err)
	}
	if len(bad) > 0 {
		if world.Rank() == 0 {
			fmt.Fprintf(os.Stderr, "mpibench: %s found defects in %s\n", flag, strings.Join(bad, ","))
		}
		return 3
	}
	return 0
}
