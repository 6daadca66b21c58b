package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// runner starts the launches of one tune run.
type runner struct {
	o      *options
	lib    Library
	exe    string // the mpibench binary every launch runs
	msglen string // the -msglen file of every launch
	stderr io.Writer
	ctx    context.Context
	// launched counts the launches that ran to their end (ok or failed
	// after the first succeeded).
	launched int
}

// launch is one job: what it measures, under which environment, where
// its records go.
type launch struct {
	np    int
	args  []string // mpibench's arguments
	env   []string
	out   string // records file; the output goes to out+".log"
	label string // for the progress line
}

// mpi1 is the launch of mpi1 measuring colls at np processes into out.
func (r *runner) mpi1(np int, colls []Coll, out string) launch {
	// IMB 2021 runs a barrier after every call of a collective, untimed;
	// IMB's own barrier (-imb_barrier on) keeps the library's Barrier
	// algorithm, which tune forces or the file selects, from changing how
	// the next call of another collective starts. Without it, a Barrier
	// rule made Bcast and Scatter up to 5 times slower in the proof at
	// points where the file changed nothing for them.
	args := []string{"mpi1", "-imb", "2021", "-npmin", strconv.Itoa(np), "-msglen", r.msglen, "-imb_barrier", "on", "-json", out}
	if r.o.plan.Iter != "" {
		args = append(args, "-iter", r.o.plan.Iter)
	}
	if r.o.plan.Time != "" {
		args = append(args, "-time", r.o.plan.Time)
	}
	for _, c := range colls {
		args = append(args, c.Name)
	}
	return launch{np: np, args: args, out: out}
}

// argv is the launcher's command line for l.
func (r *runner) argv(l launch) []string {
	var argv []string
	for _, a := range r.o.launcher {
		argv = append(argv, strings.ReplaceAll(a, "{np}", strconv.Itoa(l.np)))
	}
	return append(append(argv, r.exe), l.args...)
}

// errInterrupted ends a run on SIGINT, SIGTERM or SIGHUP.
var errInterrupted = errors.New("interrupted")

// start runs l to its end; a failed job is an error with the last line
// of its output. The job runs in its own process group, which an
// interrupt kills (finished launches are kept).
func (r *runner) start(l launch) error {
	if r.ctx.Err() != nil {
		return errInterrupted
	}
	log, err := os.Create(l.out + ".log")
	if err != nil {
		return err
	}
	defer func() { _ = log.Close() }() // the job's output, for the user; its records are the results
	argv := r.argv(l)
	_, _ = fmt.Fprintf(log, "# %s %s\n", strings.Join(l.env, " "), strings.Join(argv, " "))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), l.env...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %v", argv[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-r.ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		return errInterrupted
	}
	_, _ = fmt.Fprintf(r.stderr, "mpibench tune: %s: %s in %.1f s\n", l.label, status(err), time.Since(began).Seconds())
	if err != nil {
		return fmt.Errorf("%v: %s", err, lastLine(l.out+".log"))
	}
	return nil
}

func status(err error) string {
	if err != nil {
		return "failed (" + err.Error() + ")"
	}
	return "ok"
}

// lastLine is the last line of a job's output that is not blank: what it
// said when it failed.
func lastLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// writeMsglen writes the lengths as IMB's -msglen file.
func writeMsglen(dir string, sizes []int) (string, error) {
	var b strings.Builder
	for _, n := range sizes {
		fmt.Fprintf(&b, "%d\n", n)
	}
	p := filepath.Join(dir, "msglen.txt")
	return p, os.WriteFile(p, []byte(b.String()), 0o644)
}

// run measures, chooses, writes the tuning file and proves it.
func run(o *options, lib Library, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	var got atomic.Value // the signal that stopped the run
	go func() {
		if sig, ok := <-sigs; ok {
			got.Store(sig)
			cancel()
		}
	}()
	r := &runner{o: o, lib: lib, stderr: stderr, ctx: ctx}
	var err error
	if r.exe, err = os.Executable(); err == nil {
		r.msglen, err = writeMsglen(o.out, o.plan.Sizes)
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench tune: %v\n", err)
		return 1
	}
	code := r.all(stdout)
	if sig, ok := got.Load().(syscall.Signal); ok && code != 0 {
		_, _ = fmt.Fprintf(stderr, "mpibench tune: interrupted by %v; the finished launches are in %s/raw\n", sig, o.out)
		return 128 + int(sig)
	}
	return code
}

// all is the run after the checks: measure, choose, write, prove, show.
func (r *runner) all(stdout io.Writer) int {
	m, err := r.measure()
	if err != nil {
		return r.fail(err)
	}
	choices := choose(r.o.plan, m)
	if err := writeLines(filepath.Join(r.o.out, "choices.jsonl"), choices); err != nil {
		return r.fail(err)
	}
	t := table(choices, r.lib)
	rules := filepath.Join(r.o.out, rulesFile(r.lib))
	if err := writeFile(rules, func(w io.Writer) error { return r.lib.WriteRules(w, t) }); err != nil {
		return r.fail(err)
	}
	proofs, err := r.prove(t, rules, choices)
	if err == nil && revert(choices, proofs) > 0 {
		err = r.rewrite(choices, rules)
	}
	if err == nil {
		err = writeLines(filepath.Join(r.o.out, "proof.jsonl"), proofs)
	}
	if err == nil {
		err = writeFile(filepath.Join(r.o.out, "tune.html"), func(w io.Writer) error { return WriteHTML(w, choices, proofs) })
	}
	if err == nil {
		err = WriteText(stdout, choices, proofs)
	}
	if err == nil && r.o.guidelines != "" {
		err = r.guidelines(stdout)
	}
	if err != nil {
		return r.fail(err)
	}
	for _, p := range proofs {
		if p.Reverted {
			_, _ = fmt.Fprintf(stdout, "Reverted to the default after the proof: %s np %d, %d bytes, %s (%+.1f %%, p = %.3f)\n",
				p.Coll, p.NP, p.Bytes, p.Chosen.Name, p.Change, p.P)
		}
	}
	_, _ = fmt.Fprintf(stdout, "\n%s tuning file: %s (use it with: %s)\n", r.lib.Name(), rules, strings.Join(r.lib.RulesEnv(rules), " "))
	return 0
}

// rewrite writes the choices and the tuning file again after revert.
func (r *runner) rewrite(choices []Choice, rules string) error {
	if err := writeLines(filepath.Join(r.o.out, "choices.jsonl"), choices); err != nil {
		return err
	}
	t := table(choices, r.lib)
	return writeFile(rules, func(w io.Writer) error { return r.lib.WriteRules(w, t) })
}

// fail reports err and is the exit code of a run that could not finish.
func (r *runner) fail(err error) int {
	if !errors.Is(err, errInterrupted) { // run says it, with the signal
		_, _ = fmt.Fprintf(r.stderr, "mpibench tune: %v\n", err)
	}
	return 1
}

// guidelines answers the violations -guidelines found.
func (r *runner) guidelines(stdout io.Writer) error {
	vs := r.o.violations
	if err := r.remedies(vs); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(r.o.out, "guidelines.jsonl"), vs); err != nil {
		return err
	}
	return writeViolations(stdout, r.o.guidelines, vs)
}
