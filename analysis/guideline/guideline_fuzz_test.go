package guideline

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// format prints guidelines in the file format Parse reads.
func format(gs []Guideline) string {
	var b strings.Builder
	rel := map[Kind]string{Monotony: "monotone", Split: "split", Pattern: "<="}
	for _, g := range gs {
		fmt.Fprintf(&b, "%s %s %s %s %s\n", g.ID, g.Left, rel[g.Kind], g.Right, g.Mapping)
	}
	return b.String()
}

var parseError = regexp.MustCompile(`^in\.txt(:[0-9]+)?: `)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		defaultText, "", "# only comments\n\n", "GL1 * monotone * n\n", "GL1 * monotone * n\nGL1 * split * n\n",
		"GLx MPI_Gather <= Gather_as_Reduce MPI_Reduce(n)\n", "GL1 * <= * n\n", "GL1 MPI_Bcast monotone MPI_Scatter n\n",
		"GL1 * frob * n\n", "GL1 * monotone *\n", "GL1\t*\tmonotone\t*\tMPI_A(n)  <=  MPI_A(n+k)\n",
		"GL1\u00a0x monotone * n\n", // panicked: a blank that strings.Fields splits at but mappingOf did not
		"GL1 * monotone * n\r\n", "\xff\xfe * monotone * n\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gs, err := Parse(strings.NewReader(s), "in.txt")
		if err != nil {
			if !parseError.MatchString(err.Error()) {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if len(gs) == 0 {
			t.Fatal("no guidelines and no error")
		}
		again, err := Parse(strings.NewReader(format(gs)), "in.txt")
		if err != nil {
			t.Fatalf("printed guidelines do not parse: %v\n%s", err, format(gs))
		}
		for i, g := range gs {
			g.Line, again[i].Line = 0, 0
			if g != again[i] {
				t.Fatalf("round trip: %+v became %+v", g, again[i])
			}
		}
	})
}
