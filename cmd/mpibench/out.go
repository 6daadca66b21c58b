package main

import (
	"fmt"
	"io"
)

// printOut writes text that is the command's output (help, version, the
// list) to stdout and returns the exit code: 0, or 1 with a message when
// the write failed (a closed pipe, a full disk), which must not pass for
// success.
func printOut(stdout, stderr io.Writer, text string) int {
	if _, err := io.WriteString(stdout, text); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench: writing to stdout: %v\n", err)
		return 1
	}
	return 0
}
