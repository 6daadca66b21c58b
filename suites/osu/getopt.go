package osu

import (
	"fmt"
	"strings"

	"mpibench/internal/cli"
)

// longNames are OSU 7.4's long options (osu_util_options.h:
// OMBOP_LONG_OPTIONS_ALL) with the letter each stands for, and
// mpibench's own: --json (also -json and -o) and --samples.
var longNames = map[string]byte{
	"help": 'h', "version": 'v', "full": 'f', "message-size": 'm', "window-size": 'W',
	"num-test-calls": 't', "iterations": 'i', "warmup": 'x', "array-size": 'a', "sync-option": 's',
	"win-options": 'w', "mem-limit": 'M', "accelerator": 'd', "cuda-target": 'r', "print-rate": 'R',
	"num-pairs": 'p', "vary-window": 'V', "validation": 'c', "buffer-num": 'b', "validation-warmup": 'u',
	"graph": 'G', "papi": 'P', "ddt": 'D', "nhbr": 'N', "type": 'T', "session": 'I', "in-place": 'l',
	"tail-lat": 'z', "root-rank": 'k', "json": 'o', "samples": 'S',
}

// option is one option of the command line as getopt returns it.
type option struct {
	letter byte
	arg    string
	hasArg bool
	spell  string // as the user wrote it, for messages
}

// argKind says how option letter c takes an argument in optstring (getopt's
// syntax: "c" none, "c:" required, "c::" optional and attached); ok false
// when the benchmark has no such option.
func argKind(optstring string, c byte) (kind int, ok bool) {
	i := strings.IndexByte(optstring, c)
	if i < 0 || c == ':' || c == '+' {
		return 0, false
	}
	for kind = 0; i+1+kind < len(optstring) && optstring[i+1+kind] == ':' && kind < 2; kind++ {
	}
	return kind, true
}

// getopt splits args as glibc's getopt_long does with optstring (options
// bundled, "-m16" and "-m 16", optional arguments only attached, "--name"
// and "--name=value", and "+": the first operand ends the options). It
// reports the operands left over as an error: OSU's tests take none.
func getopt(args []string, optstring string) ([]option, error) {
	var out []option
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return nil, cli.Usagef("unexpected argument %q", args[i+1])
			}
			return out, nil
		case strings.HasPrefix(a, "--") || a == "-json" || strings.HasPrefix(a, "-json="):
			o, next, err := longOption(args, i, optstring)
			if err != nil {
				return nil, err
			}
			out, i = append(out, o), next
		case strings.HasPrefix(a, "-") && len(a) > 1:
			opts, next, err := shortOptions(args, i, optstring)
			if err != nil {
				return nil, err
			}
			out, i = append(out, opts...), next
		default:
			return nil, cli.Usagef("unexpected argument %q (OSU's tests take flags only)", a)
		}
	}
	return out, nil
}

// longOption reads args[i], a long option, and its argument; it returns
// the index of the last argument it used.
func longOption(args []string, i int, optstring string) (option, int, error) {
	name, val, hasVal := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
	c, ok := longNames[name]
	if !ok {
		return option{}, i, cli.Usagef("unknown option %s", args[i])
	}
	kind, ok := argKind(optstring+"o:S", c)
	if !ok {
		return option{}, i, cli.Usagef("option --%s is not one of this benchmark's (OSU 7.4)", name)
	}
	o := option{letter: c, arg: val, hasArg: hasVal, spell: "--" + name}
	switch {
	case kind == 0 && hasVal:
		return o, i, cli.Usagef("option --%s takes no value", name)
	case kind == 1 && !hasVal:
		if i+1 >= len(args) {
			return o, i, cli.Usagef("option --%s: missing its value", name)
		}
		i++
		o.arg, o.hasArg = args[i], true
	}
	return o, i, nil
}

// shortOptions reads args[i], one or more bundled letters, and the
// argument of the last; it returns the index of the last argument it used.
func shortOptions(args []string, i int, optstring string) ([]option, int, error) {
	a := args[i]
	var out []option
	for j := 1; j < len(a); j++ {
		c := a[j]
		kind, ok := argKind(optstring+"o:", c)
		if !ok {
			return nil, i, cli.Usagef("invalid option -%c (not one of this benchmark's options in OSU 7.4)", c)
		}
		o := option{letter: c, spell: fmt.Sprintf("-%c", c)}
		if kind > 0 && j+1 < len(a) {
			o.arg, o.hasArg = a[j+1:], true
			return append(out, o), i, nil
		}
		if kind == 1 {
			if i+1 >= len(args) {
				return nil, i, cli.Usagef("option -%c: missing its value", c)
			}
			i++
			o.arg, o.hasArg = args[i], true
		}
		out = append(out, o)
	}
	return out, i, nil
}
