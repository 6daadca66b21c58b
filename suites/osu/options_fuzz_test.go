package osu

import (
	"strings"
	"testing"

	"mpibench/internal/cli"
)

// FuzzParse: any command line is a config or a usage error, never a
// panic, and a config's sizes are within the bounds Parse promises.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"osu_bw -m 4K:1M -W 8 -c -z", "latency -m:16 -z0,100 -T all", "mbw_mr -R0 -p 3",
		"latency_mt -t 3:4 -c", "bibw -D vect:4:2 -b multiple", "bw --window-size=9 --message-size 2:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		o, err := Parse(strings.Fields(line))
		if err != nil {
			if !cli.IsUsage(err) {
				t.Fatalf("%q: %v is not a usage error", line, err)
			}
			return
		}
		if o.MinSize < 0 || o.MaxSize < o.MinSize || o.MaxSize > maxBigSize || (o.MaxSize > MaxBytes && !bigOK(o)) || o.Iterations < 1 || o.Window < 1 ||
			len(o.Types) == 0 || len(o.Sizes()) > 64 {
			t.Fatalf("%q: parsed %+v", line, o)
		}
	})
}
