package textout

import "testing"

// The renderers' escaping of a hostile results file is tested in
// package plots (escape_test.go), which renders it as HTML and text.

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"node-1.example":       "node-1.example",
		"a\tb":                 "a\tb",
		"a\nb\r\x07\x7f\u009b": "a?b????",
		"\xff":                 "\ufffd",
		"µs ü":                 "µs ü",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
	if got := CleanText("a\nb\x1b"); got != "a\nb?" {
		t.Errorf("CleanText kept or lost the wrong characters: %q", got)
	}
}
