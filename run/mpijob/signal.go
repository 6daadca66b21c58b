package mpijob

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"mpibench/mpi"
)

// cleanups are what must be undone when the run ends early: the benchmark
// files of IMB-IO and b_eff_io. A process runs one command, so the list
// is never emptied.
var cleanups struct {
	sync.Mutex
	list []func()
}

// OnInterrupt adds f to the cleanups that a signal, an internal error or
// an MPI error that aborts the job runs before the process ends. f must
// not call MPI: it may run in the signal handler's goroutine.
func OnInterrupt(f func()) {
	cleanups.Lock()
	defer cleanups.Unlock()
	cleanups.list = append(cleanups.list, f)
}

// aborting is set once this process has asked MPI to abort the job.
var aborting atomic.Bool

// abortJob is MPI_Abort on MPI_COMM_WORLD, noted in aborting.
func abortJob(code int) {
	aborting.Store(true)
	mpi.Abort(code)
}

// hungCleanup runs the cleanups when the watchdog has decided to end the
// job: from then on the launcher's SIGTERM is no interruption.
func hungCleanup() {
	aborting.Store(true)
	runCleanups()
}

func runCleanups() {
	cleanups.Lock()
	defer cleanups.Unlock()
	for _, f := range cleanups.list {
		f()
	}
}

// cleanupOnSignal makes SIGINT and SIGTERM end this rank cleanly: the
// records written so far are already on disk (each is handed to the OS as
// it is finished), the cleanups run, and the process exits with
// 128+signal (130, 143) as shells report it. MPI is not finalised: the
// other ranks get the same signal from the launcher, or the launcher ends
// them. The returned function stops the handling.
func cleanupOnSignal(stderr io.Writer) (stop func()) {
	ch := make(chan os.Signal, 1)
	// SIGHUP: MPICH's mpiexec ends the other ranks with it once one exits.
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			runCleanups()
			if !aborting.Load() {
				// After the watchdog's abort the launcher's SIGTERM is
				// how the job ends, not an interruption.
				_, _ = fmt.Fprintf(stderr, "mpibench: interrupted by %v; finished records are kept\n", sig)
			}
			os.Exit(128 + int(sig.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
