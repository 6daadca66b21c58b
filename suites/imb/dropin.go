package imb

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// DropIn is set when mpibench runs under an Intel program name (IMB-MPI1,
// IMB-EXT, IMB-IO, IMB-NBC, IMB-MPI4, IMB-RMA: cmd/mpibench, dropin.go).
// The command line is then read as IMB 2021.11's parser reads it
// (src_cpp/imb.cpp sets args_parser::ALLOW_UNEXPECTED_ARGS;
// src_cpp/args_parser.cpp, parse, keeps every argument no option matches
// as a benchmark name): an unknown flag, its value and an unknown
// benchmark name are each an "Invalid benchmark name" line
// (MPI1_suite.cpp and the other suites' prepare) and are otherwise
// ignored; when no valid name is left, the default list runs
// (imb.cpp, "missing"). `mpibench mpi1 -imb 2021` stays strict: a typo is
// an error there.
var DropIn bool

// dropUnknownNames splits names into those s knows and the others.
func dropUnknownNames(s *Suite, names []string) (known, unknown []string) {
	for _, n := range names {
		if _, ok := s.Lookup(n); ok {
			known = append(known, n)
		} else {
			unknown = append(unknown, n)
		}
	}
	return known, unknown
}

// lengthLine2021 reads one line of a -msglen file as IMB 2021.11 does
// (src_cpp/MPI1/MPI1_suite.cpp, EXT_suite.cpp, RMA_suite.cpp and the
// others, load_msg_sizes: sscanf(line, "%d%s", &sz, S)): an integer with
// an optional sign, then optionally a word whose first letter k or K
// multiplies it by 1024, m or M by 1024²; any other word makes the file
// invalid. So "4k", "4 K", "4KB" and "1M" are lengths, "1G" and "4.5" are
// not. The error is strconv.ErrRange for a length past 64 bits,
// strconv.ErrSyntax for a line that is no length.
func lengthLine2021(t string) (int64, error) {
	t = strings.TrimLeftFunc(t, unicode.IsSpace)
	end := 0
	if end < len(t) && (t[end] == '+' || t[end] == '-') {
		end++
	}
	digits := end
	for end < len(t) && t[end] >= '0' && t[end] <= '9' {
		end++
	}
	if end == digits {
		return 0, strconv.ErrSyntax
	}
	x, err := strconv.ParseInt(t[:end], 10, 64)
	if err != nil {
		return 0, strconv.ErrRange
	}
	word := strings.TrimLeftFunc(t[end:], unicode.IsSpace)
	if word == "" {
		return x, nil
	}
	shift := map[byte]uint{'k': 10, 'K': 10, 'm': 20, 'M': 20}[word[0]]
	switch {
	case shift == 0:
		return 0, strconv.ErrSyntax
	case x > math.MaxInt64>>shift || x < math.MinInt64>>shift:
		return 0, strconv.ErrRange
	}
	return x << shift, nil
}
