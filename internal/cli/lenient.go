package cli

import (
	"flag"
	"strings"
	"unicode"
)

// DropUnknown takes out of args every argument that looks like a flag fs
// does not define (-h and -help count as defined), returning the rest and
// the arguments taken out, in order. A defined flag keeps its value,
// separate or attached; an unknown flag's separate value stays, as the
// word it is to IMB's parsers (a benchmark name, which the caller checks).
// It is the leniency of IMB 2021.11's programs, which mpibench has under
// their names (cmd/mpibench, dropin.go).
func DropUnknown(fs *flag.FlagSet, args []string) (rest, dropped []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i:]...), dropped
		}
		name, ok := flagName(a)
		if !ok {
			rest = append(rest, a)
			continue
		}
		f := fs.Lookup(name)
		if f == nil && name != "h" && name != "help" {
			dropped = append(dropped, a)
			continue
		}
		rest = append(rest, a)
		if f != nil && !strings.Contains(a, "=") && !isBool(f) && i+1 < len(args) {
			i++
			rest = append(rest, args[i])
		}
	}
	return rest, dropped
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// flagName is the name of a flag argument ("-msglog", "--iter=5"); ok is
// false for a non-flag (a benchmark name, a negative number, "-").
func flagName(a string) (string, bool) {
	if len(a) < 2 || a[0] != '-' {
		return "", false
	}
	n := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	n, _, _ = strings.Cut(n, "=")
	if n == "" || unicode.IsDigit(rune(n[0])) || n[0] == '.' {
		return "", false
	}
	return n, true
}
