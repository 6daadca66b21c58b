package e2e

// The IMB text tables (section 6 of the IMB guide), as the tests of the
// IMB family and of p2p read them.

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Table is one "# Benchmarking" table.
type Table struct {
	Title   string   // "PingPong" or "Multi-PingPong"
	Head    []string // the '#' lines between the title and the column titles
	Columns []string
	Rows    [][]string
}

// ParseTables splits stdout into its "# Benchmarking" tables. Any other
// line outside the '#' comments that is not a row of numbers is an error,
// except IMB's closing "!!!!" lines.
func ParseTables(t *testing.T, out string) []Table {
	t.Helper()
	var tabs []Table
	var cur *Table
	for _, line := range strings.Split(out, "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "# Benchmarking "):
			tabs = append(tabs, Table{Title: strings.TrimSpace(strings.TrimPrefix(line, "# Benchmarking "))})
			cur = &tabs[len(tabs)-1]
		case trim == "" || strings.HasPrefix(line, "!!!!"):
		case strings.HasPrefix(line, "#"):
			if cur != nil && cur.Columns == nil && !strings.HasPrefix(line, "#--") {
				cur.Head = append(cur.Head, line)
			}
		case cur != nil && cur.Columns == nil:
			cur.Columns = strings.Fields(line)
		case cur != nil && numeric(strings.Fields(line)):
			cur.Rows = append(cur.Rows, strings.Fields(line))
		default:
			t.Errorf("unexpected output line %q", line)
		}
	}
	return tabs
}

func numeric(f []string) bool {
	for _, s := range f {
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return false
		}
	}
	return len(f) > 0
}

// HeaderPattern is the general block of an IMB output, up to the first
// table, with the values that differ between runs and programs replaced:
// the title's program, the "# Key: value" lines' values (IMB-P2P's empty
// "# MPI Thread Environment:" one too), the calling sequence (the first
// line after it that is not "" or "#": IMB-P2P's layout).
func HeaderPattern(out string) []string {
	head, _, _ := strings.Cut(out, "# Benchmarking ")
	title := regexp.MustCompile(`^#    .*, (.*) part$`)
	keyed := regexp.MustCompile(`^# (.{22}):( .*)?$`)
	var pat []string
	calling := false
	for _, l := range strings.Split(head, "\n") {
		switch {
		case calling && l != "" && l != "#":
			l, calling = "# CMD", false
		case strings.TrimSpace(l) == "# Calling sequence was:":
			calling = true
		}
		l = title.ReplaceAllString(l, "#    PROGRAM, $1 part")
		pat = append(pat, keyed.ReplaceAllString(l, "# $1: VALUE"))
	}
	return pat
}

// SameHeader requires the header lines of ours and of the peer's output
// to match up to their values (HeaderPattern).
func SameHeader(t *testing.T, ours, peer, theirs string) {
	t.Helper()
	if a, b := HeaderPattern(ours), HeaderPattern(theirs); !slices.Equal(a, b) {
		t.Errorf("header lines differ\n mpibench: %q\n %s: %q", a, peer, b)
	}
}
