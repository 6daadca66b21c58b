package main

import (
	"io"
	"strings"
	"testing"

	"mpibench/internal/cli"
)

// splitArgs splits a fuzzed string into arguments, one per line.
func splitArgs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func FuzzReportParse(f *testing.F) {
	for _, s := range []string{
		"", "a.jsonl", "a.jsonl\n-o\nr.html\nb.jsonl", "-format\npng\na.jsonl", "-o", "-h", "--help", "-x\na.jsonl",
		"--\na.jsonl", "-\n-o\nx", "a.jsonl\n--\n-o",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := splitArgs(s)
		fs := cli.NewFlags("report")
		fs.String("o", "", "")
		fs.String("format", "", "")
		files, code := reportParse(fs, args, "Usage: mpibench report ...\n", io.Discard, io.Discard) // report.go: analysis build only
		switch {
		case files == nil && code != 0 && code != 2:
			t.Fatalf("reportParse(%q): code %d", args, code)
		case files != nil && (code != 0 || len(files) == 0 || len(files) > len(args)):
			t.Fatalf("reportParse(%q): files %q code %d", args, files, code)
		}
	})
}
