package cli

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The flag values below are flag.Funcs: fs.Func(name, "", cli.Count(...)).
// The flag package puts the flag's name in front of their errors.

// Count sets *dst to a whole number of at least 1; what names the unit
// in the error.
func Count(dst *int, what string) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("want a whole number of %s, at least 1", what)
		}
		*dst = n
		return nil
	}
}

// Procs sets *dst to a list of process counts, "1,2,4": distinct whole
// numbers of at least 1, separated by commas.
func Procs(dst *[]int) func(string) error {
	return func(v string) error {
		var out []int
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return fmt.Errorf("want process counts of at least 1, separated by commas")
			}
			if slices.Contains(out, n) {
				return fmt.Errorf("%d appears twice", n)
			}
			out = append(out, n)
		}
		*dst = out
		return nil
	}
}

// Sizes sets *dst to a list of sizes in bytes, "0,8,1024": whole numbers
// of at least 0 and at most most, separated by commas, kept in the order
// given.
func Sizes(dst *[]int, most int) func(string) error {
	return func(v string) error {
		var out []int
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 0 || n > most {
				return fmt.Errorf("want sizes in bytes, 0 to %d, separated by commas", most)
			}
			out = append(out, n)
		}
		*dst = out
		return nil
	}
}

// Seconds sets *dst to a number of seconds greater than 0 and at most
// most (a finite number). When off is not "", that word (in any case)
// sets *dst to offValue instead.
func Seconds(dst *float64, most float64, off string, offValue float64) func(string) error {
	return func(v string) error {
		if off != "" && strings.EqualFold(v, off) {
			*dst = offValue
			return nil
		}
		s, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(s) || !(s > 0 && s <= most) {
			m := strconv.FormatFloat(most, 'f', -1, 64)
			if off != "" {
				return fmt.Errorf("want a number of seconds greater than 0, at most %s, or %s", m, off)
			}
			return fmt.Errorf("want a number of seconds greater than 0, at most %s", m)
		}
		*dst = s
		return nil
	}
}

// Switch is a flag that takes no value, as IMB's -check and every -h:
// "-check" sets it; "-check=0" is an error rather than a way to unset it.
type Switch struct{ On *bool }

func (s Switch) String() string {
	if s.On == nil {
		return "false"
	}
	return strconv.FormatBool(*s.On)
}

// Set is called with "true" for the bare flag, and with the value after
// "=" otherwise (which "-flag=true" cannot be told apart from).
func (s Switch) Set(v string) error {
	if v != "true" {
		return fmt.Errorf("takes no value (got %q)", v)
	}
	*s.On = true
	return nil
}

// IsBoolFlag makes the flag package take the switch without a value.
func (Switch) IsBoolFlag() bool { return true }

// Bytes reads a size in bytes: digits with an optional K, M or G suffix
// (powers of 1024), at least 0 and at most most.
func Bytes(v string, most int64) (int64, error) {
	v = strings.TrimSpace(v)
	mult := int64(1)
	if n := len(v); n > 0 {
		switch v[n-1] {
		case 'k', 'K':
			mult = 1 << 10
		case 'm', 'M':
			mult = 1 << 20
		case 'g', 'G':
			mult = 1 << 30
		}
		if mult > 1 {
			v = v[:n-1]
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > most/mult {
		return 0, fmt.Errorf("bad size %q: want 0 to %d bytes, suffix K, M or G allowed", v, most)
	}
	return n * mult, nil
}
