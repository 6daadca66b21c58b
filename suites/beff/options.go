package beff

import (
	"fmt"
	"strconv"
	"strings"

	"mpibench/analysis/result"
	"mpibench/internal/cli"
)

// DefaultRandom is the number of random patterns: 30, as MAX_RANDOM of the
// original b_eff. They all average into one of the two halves of b_eff,
// so their number only sharpens the random half.
const DefaultRandom = 30

// DefaultSeed seeds the random patterns unless -seed is given: fixed, so
// that two runs measure the same patterns; every record carries it.
const DefaultSeed = 1

// MaxMemMB bounds -mem: 1 TiB per process, in MB. L_max stops growing at
// 16 GiB (see Lmax); the bound keeps mem·2^20 far from int64's end.
const MaxMemMB = 1 << 20

// Options is the command line of mpibench beff.
type Options struct {
	Mem        int    `json:"mem_mb,omitempty"` // MB (2^20) per process; 0: physical memory / processes on the host
	Patterns   string `json:"patterns"`         // cartesian or rings
	Looplength string `json:"looplength"`       // adaptive or fixed
	Check      bool   `json:"check,omitempty"`  // data check instead of timing
	Seed       uint64 `json:"seed"`
	Random     int    `json:"random"`
	JSON       string `json:"json,omitempty"`
	Help       bool   `json:"-"`
}

// UsageError is a bad command line: exit code 2.
type UsageError = cli.UsageError

// Usagef makes a UsageError.
func Usagef(format string, a ...any) error { return cli.Usagef(format, a...) }

// ParseArgs reads the flags of mpibench beff.
func ParseArgs(args []string) (Options, error) {
	o := Options{Patterns: Cartesian, Seed: DefaultSeed, Random: DefaultRandom}
	fs := cli.NewFlags(result.SuiteBeff)
	fs.Func("mem", "", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxMemMB {
			return fmt.Errorf("want a whole number of MB per process, 1 to %d (1 TiB)", MaxMemMB)
		}
		o.Mem = n
		return nil
	})
	fs.Func("patterns", "", choice(&o.Patterns, Cartesian, "rings"))
	fs.Func("looplength", "", choice(&o.Looplength, Adaptive, Fixed))
	fs.BoolVar(&o.Check, "check", false, "")
	fs.Func("seed", "", func(v string) error {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return fmt.Errorf("want a non-negative whole number")
		}
		o.Seed = n
		return nil
	})
	fs.Func("random", "", cli.Count(&o.Random, "random patterns"))
	cli.Results(fs, &o.JSON)
	if err := cli.Parse(fs, args, &o.Help, "b_eff"); err != nil {
		return o, err
	}
	if o.Patterns == "rings" {
		o.Patterns = Ring
	}
	if o.Looplength == "" {
		// Each definition with its own rule: the version 3.1 page's
		// fixed looplength with its Cartesian patterns, the paper's
		// adaptive one with its rings (issue 12).
		o.Looplength = Fixed
		if o.Patterns == Ring {
			o.Looplength = Adaptive
		}
	}
	return o, nil
}

func choice(dst *string, allowed ...string) func(string) error {
	return func(v string) error {
		for _, a := range allowed {
			if v == a {
				*dst = v
				return nil
			}
		}
		return fmt.Errorf("want one of %s", strings.Join(allowed, ", "))
	}
}

// Usage is the help of mpibench beff.
const Usage = `Usage: mpirun -np P mpibench beff [flags]

Measures the effective bandwidth b_eff (version 3.1): every process sends to
and receives from its neighbours in Cartesian (or ring) and random patterns,
21 message lengths up to L_max, three methods (MPI_Sendrecv, MPI_Alltoallv,
MPI_Irecv+MPI_Isend+MPI_Waitall), 3 repetitions; b_eff is the logarithmic
average of the Cartesian and the random patterns' averages. Needs P >= 2.

  -mem MB              memory per process in MB (2^20 bytes), at most
                       1048576; L_max = min(128 MB, mem/128) (default:
                       physical memory / processes on this host)
  -patterns cartesian|rings
                       the patterns averaged with the random ones (default
                       cartesian, the version 3.1 page; rings: the paper's six)
  -looplength adaptive|fixed
                       fixed: min(300, L_max/L) (the 3.1 page; default
                       with cartesian); adaptive: 300 at 1 byte, then
                       lowered or raised (1..300) so that each loop takes
                       2.5-5 ms, measured again up to 3 times when it
                       misses (the paper; default with rings)
  -check               data check instead of timing: every execution of
                       every loop sends rank- and execution-dependent
                       bytes and every received byte is verified; exit 3
                       when any is wrong (the times are no benchmark data)
  -seed N              seed of the random patterns (default 1)
  -random N            number of random patterns (default 30)
  -json FILE           write every b(pat,L,mthd,rep) and the summary as
                       JSON Lines records to FILE (-o FILE is the same flag)
  -h                   this help

Exit codes: 0 ok, 1 run-time failure, 2 bad input.
`
