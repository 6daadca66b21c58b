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
// and "--name=value", and "+": the first operand ends the options). The
// operands left are OSU's buffer locations (operands).
func getopt(args []string, optstring string) ([]option, error) {
	var out []option
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return out, operands(args[i+1:])
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
			return out, operands(args[i:])
		}
	}
	return out, nil
}

// operands checks what follows the options: OSU 7.4's buffer locations
// SRC DST (osu_util.c, process_options), which scripts such as ReFrame's
// OSU checks pass after the flags, "H H" for host memory. OSU built with
// CUDA, ROCm or OpenACC reads the first letter of each (H host, D device,
// M managed) and refuses any other count; built without them it reads
// none of it and measures host memory whatever they say. mpibench, which
// has host buffers only, takes H (either case) and refuses D and M
// rather than measure host memory under a device's name; getopt's "+"
// also ends the options at the first operand, so an option after it is
// never read, and is refused here too.
func operands(ops []string) error {
	if len(ops) == 0 {
		return nil
	}
	if DropIn && !deviceBuffers(ops) {
		// Run as osu_latency etc.: OSU 7.4 built without accelerators
		// reads nothing after the options (process_options checks
		// optind only when accel_enabled), and neither does mpibench.
		return nil
	}
	for _, o := range ops {
		if strings.HasPrefix(o, "-") && len(o) > 1 {
			return cli.Usagef("%s after the buffer locations %q: OSU 7.4 stops reading options at the first "+
				"operand; put the options first", o, strings.Join(ops, " "))
		}
	}
	if len(ops) != 2 {
		return cli.Usagef("unexpected argument %q: after the options OSU 7.4 takes only the buffer locations "+
			"SRC DST (H H)", strings.Join(ops, " "))
	}
	for _, o := range ops {
		switch strings.ToUpper(o[:1]) {
		case "H":
		case "D", "M":
			return cli.Usagef("buffer location %q (%s memory): mpibench has host buffers only, as OSU 7.4 built "+
				"without CUDA, ROCm or OpenACC (which ignores SRC DST and measures host memory); use H H",
				o, map[string]string{"D": "device", "M": "managed"}[strings.ToUpper(o[:1])])
		default:
			return cli.Usagef("buffer location %q: want H (host), or D or M in OSU's accelerator builds", o)
		}
	}
	return nil
}

// accelOnly are the options that OSU 7.4's getopt strings have only in
// its accelerator builds (osu_util_options.h, OMBOP__ACCEL__*), named for
// the refusal: without them OSU says "Invalid option".
var accelOnly = map[byte]string{'d': "-d (--accelerator)", 'r': "-r (--cuda-target)"}

// noOption is the error for an option letter c that optstring lacks.
func noOption(c byte) error {
	if name, ok := accelOnly[c]; ok {
		return cli.Usagef("option %s: only OSU 7.4 built with CUDA, ROCm or OpenACC has it, for device "+
			"buffers; mpibench has host buffers only, as OSU built without them (which answers \"Invalid option\")", name)
	}
	return cli.Usagef("invalid option -%c (not one of this benchmark's options in OSU 7.4)", c)
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
	if _, accel := accelOnly[c]; !ok && accel {
		return option{}, i, noOption(c)
	}
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
			return nil, i, noOption(c)
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

// DropIn is set when mpibench runs under an OSU program's name
// (cmd/mpibench, dropin.go): the operands after the options are then
// ignored, as OSU 7.4 built without CUDA, ROCm or OpenACC ignores them,
// options after the first operand included (getopt's "+" stops there);
// only D or M buffer locations (SRC DST) are still refused, since
// mpibench has no device buffers to measure.
var DropIn bool

// deviceBuffers says whether ops are OSU's two buffer locations with a
// device (D) or managed (M) one.
func deviceBuffers(ops []string) bool {
	if len(ops) != 2 {
		return false
	}
	for _, o := range ops {
		if c := strings.ToUpper(o); strings.HasPrefix(c, "D") || strings.HasPrefix(c, "M") {
			return true
		}
	}
	return false
}
