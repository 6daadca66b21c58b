package main

import (
	"flag"
	"io"
)

// newFlags is a flag set that reports its errors to the caller only.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}
