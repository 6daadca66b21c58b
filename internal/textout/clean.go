package textout

import "strings"

// Clean replaces the control characters of s with '?', all but the tab:
// a string from a record (a host name, an argument, a label) may come
// from a file of anyone's, and printed to a terminal an escape sequence
// in it could rewrite the screen, the title or the clipboard. Invalid
// UTF-8 becomes U+FFFD.
func Clean(s string) string { return strings.Map(printable(false), s) }

// CleanText is Clean for a whole rendered text or page: it keeps the
// line breaks.
func CleanText(s string) string { return strings.Map(printable(true), s) }

func printable(lines bool) func(rune) rune {
	return func(r rune) rune {
		switch {
		case r == '\t', r == '\n' && lines:
			return r
		case r < 0x20, r >= 0x7f && r < 0xa0: // C0, DEL, C1
			return '?'
		}
		return r
	}
}

// CleanArgs cleans the string arguments of a printf.
func CleanArgs(a []any) []any {
	for i, v := range a {
		if s, ok := v.(string); ok {
			a[i] = Clean(s)
		}
	}
	return a
}
