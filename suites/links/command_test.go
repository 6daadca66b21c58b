package links

import (
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	c, err := ParseArgs(nil, 4)
	if err != nil || *c != (Config{Size: 16384, Times: 100, Window: 50, Warm: 1, Slow: 20}) {
		t.Errorf("defaults %+v, %v", c, err)
	}
	c, err = ParseArgs([]string{"-size", "0", "-iters", "2", "-window", "3", "-warmup", "0", "-slow", "5", "-o", "x.jsonl"}, 2)
	if err != nil || *c != (Config{Size: 0, Times: 2, Window: 3, Warm: 0, Slow: 5, JSON: "x.jsonl"}) {
		t.Errorf("%+v, %v", c, err)
	}
	for _, bad := range []struct {
		args []string
		np   int
		want string
	}{
		{[]string{"-size", "-1"}, 2, "-size"},
		{[]string{"-size", "1G"}, 2, "-size"},
		{[]string{"-iters", "0"}, 2, "-iters"},
		{[]string{"-window", "0"}, 2, "-window"},
		{[]string{"-warmup", "-1"}, 2, "-warmup"},
		{[]string{"-slow", "150"}, 2, "-slow 150"},
		{[]string{"-slow", "NaN"}, 2, "-slow NaN"},
		{[]string{"-size", "1073741824", "-window", "2"}, 2, "more than 1 GiB"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{nil, 1, "at least 2 processes, got 1"},
	} {
		if _, err := ParseArgs(bad.args, bad.np); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v on %d: error %v, want %q", bad.args, bad.np, err, bad.want)
		}
	}
}
