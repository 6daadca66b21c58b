// Package befftext renders the records of b_eff and b_eff_io as the
// original programs print their protocols: every measurement, the tables
// per pattern (b_eff) or per chunk size and pattern type (b_eff_io), and
// the last line each original ends with. Everything comes from the
// records, never the reverse, so a merged or resumed run prints the same
// way.
package befftext
