package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"mpibench/imb"
)

// cleanupOnSignal makes SIGINT and SIGTERM end this rank cleanly: the
// records written so far are already on disk (each is handed to the OS as
// it is finished), the benchmark files of IMB-IO are removed, and the
// process exits with 128+signal (130, 143) as shells report it. MPI is not
// finalised: the other ranks get the same signal from the launcher, or
// the launcher ends them. The returned function stops the handling.
func cleanupOnSignal(stderr io.Writer) (stop func()) {
	ch := make(chan os.Signal, 1)
	// SIGHUP: MPICH's mpiexec ends the other ranks with it once one exits.
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			imb.RemoveFiles()
			fmt.Fprintf(stderr, "mpibench: interrupted by %v; finished records are kept\n", sig)
			os.Exit(128 + int(sig.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
