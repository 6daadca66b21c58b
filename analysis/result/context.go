package result

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// sameContext says whether two contexts are equal, field by field. A
// run's records share their context's lists, so the common case is
// decided without comparing P host names.
func sameContext(a, b *Context) bool {
	return a.Tool == b.Tool && a.Start == b.Start && a.Host == b.Host && a.MPI == b.MPI &&
		a.MPIVersion == b.MPIVersion && a.MPILibrary == b.MPILibrary && a.ThreadLevel == b.ThreadLevel &&
		a.Procs == b.Procs && a.Machine == b.Machine && a.System == b.System && a.Release == b.Release &&
		a.Version == b.Version && a.IMB == b.IMB && a.Node == b.Node && a.Network == b.Network &&
		a.User == b.User && sameFloat(a.SlowPct, b.SlowPct) && sameStrings(a.Hosts, b.Hosts) &&
		sameStrings(a.Args, b.Args) && (a.Options == nil) == (b.Options == nil) &&
		maps.Equal(a.Options, b.Options)
}

func sameFloat(a, b *float64) bool {
	return a == b || (a != nil && b != nil && *a == *b)
}

// sameStrings compares two lists; the same backing array of the same
// length is equal without a look at the elements.
func sameStrings(a, b []string) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return slices.Equal(a, b)
}

// contextKey is a short key of a context: equal contexts have equal keys.
func contextKey(c *Context) string {
	return strings.Join([]string{c.Tool, c.Start, c.Host, c.MPILibrary, strconv.Itoa(c.Procs),
		strconv.Itoa(len(c.Hosts)), strconv.Itoa(len(c.Args))}, "\x00")
}
