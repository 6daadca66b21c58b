package textout

import (
	"math"
	"strconv"
	"strings"
)

// Number writes a figure the way a person reads it: four significant
// digits, never an exponent ("10630", "4.188", "0.2234", "0.0001235"), a
// value of a thousand or more as a whole number, trailing zeros of the
// fraction dropped ("1", "250"). Not a number (no value) is "–",
// infinities "∞" and "-∞". The text tables (compare, links) and the
// report's plots and summary write their figures so.
func Number(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "-∞"
	case v == 0:
		return "0"
	}
	d := decimals(math.Abs(v))
	s := strconv.FormatFloat(v, 'f', d, 64)
	// Rounding may carry into the next decade (9.9996 is "10.000"):
	// one decimal fewer keeps four significant digits.
	if r, err := strconv.ParseFloat(s, 64); err == nil && d > 0 && decimals(math.Abs(r)) < d {
		s = strconv.FormatFloat(v, 'f', d-1, 64)
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// decimals is the decimals that give a of 4 significant digits, none
// from 1000 up.
func decimals(a float64) int {
	if a >= 1000 {
		return 0
	}
	return 3 - int(math.Floor(math.Log10(a)))
}
