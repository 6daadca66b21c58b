package tune

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"mpibench/mpi"
)

// MPICH's algorithms are the values of its control variables
// MPIR_CVAR_<COLL>_INTRA_ALGORITHM, read through MPI_T. They are ints
// without an MPI_T enumeration: the names exist only in the description,
// which MPICH writes one per line ("binomial   - Force Binomial Tree")
// and hands out with the line breaks removed (MPICH 4.0.2):
//
//	Variable to select bcast algorithmauto - Internal algorithm selection
//	(can be overridden with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE)binomial
//	                        - Force Binomial Treenb          ...
//
// So a name is glued to the last word of the line before it ("Treenb",
// "algorithmsmp"). What separates them: the names of one block of lines
// are padded with spaces to one column, so a name's length is that width
// less its spaces; and the word before it is a word of MPICH's
// descriptions, letters only. The index of a name in the description is
// the variable's value (auto = 0), which MPI_T_cvar_read returns for it.

// mpichAlgVar is the variable that selects c's algorithm.
func mpichAlgVar(c Coll) string {
	return "MPIR_CVAR_" + strings.ToUpper(c.Lib()) + "_INTRA_ALGORITHM"
}

// mpichAlgorithms reads the algorithms of every collective of Colls from
// the library's control variables, auto (the default) left out. vars are
// all the library's variables: their descriptions are the words names
// are told from.
func mpichAlgorithms(vars []mpi.ControlVar) (map[string][]Alg, error) {
	descs := map[string]string{}
	for _, v := range vars {
		descs[v.Name] = v.Desc
	}
	vocab := descWords(vars)
	algs := map[string][]Alg{}
	for _, c := range Colls {
		desc, ok := descs[mpichAlgVar(c)]
		if !ok {
			continue
		}
		names, err := algNames(desc, vocab)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", mpichAlgVar(c), err)
		}
		if names[0] != "auto" {
			return nil, fmt.Errorf("%s: the first value is %q, not auto (the library's own choice)", mpichAlgVar(c), names[0])
		}
		for id, n := range names[1:] {
			algs[c.Name] = append(algs[c.Name], Alg{ID: id + 1, Name: n})
		}
	}
	if len(algs) == 0 {
		return nil, fmt.Errorf("none of the library's %d MPI_T control variables is MPICH's MPIR_CVAR_<COLL>_INTRA_ALGORITHM "+
			"(for %s): this is not MPICH 3.3 or later, or mpibench was not built for it (-tags mpich)", len(vars), mpichAlgVar(Colls[0]))
	}
	return algs, nil
}

// algEntry is one "NAME   - Text" of a description: the word run before
// the dash (the name, glued to the word before it unless clean) and the
// spaces after it.
type algEntry struct {
	token  string
	spaces int
	clean  bool // the token is the name: the text before it ends in a sign, ")"
}

// entryRE finds the entries: a word, spaces, "- " and a capital.
var entryRE = regexp.MustCompile(`([A-Za-z0-9_]+)( +)- [A-Z]`)

// algEntries are the entries of a description in their order.
func algEntries(desc string) []algEntry {
	var es []algEntry
	for _, m := range entryRE.FindAllStringSubmatchIndex(desc, -1) {
		start := m[2]
		clean := start == 0 || desc[start-1] != ' '
		es = append(es, algEntry{token: desc[m[2]:m[3]], spaces: m[5] - m[4], clean: clean})
	}
	return es
}

// algNames are the values of an algorithm variable in the order of its
// description. The width of a block is known from its first clean name
// or the last name told; a glued name is the width less its spaces long
// when the word left before it passes plainWord, else the split byWords
// scores best. The "auto" lines are not padded: they set no width, and a
// glued "...auto" with one space is auto.
func algNames(desc string, vocab map[string]bool) ([]string, error) {
	es := algEntries(desc)
	if len(es) == 0 {
		return nil, fmt.Errorf("no \"name - text\" entries in its description %q", desc)
	}
	var names []string
	width := 0
	for _, e := range es {
		name, ok := e.token, e.clean && validAlgName(e.token)
		if !ok && e.spaces == 1 && strings.HasSuffix(e.token, "auto") && !strings.HasSuffix(e.token, "_auto") {
			name, ok = "auto", true
		}
		if !ok && width > 0 {
			name, ok = byWidth(e, width, vocab)
		}
		if !ok {
			name, ok = byWords(e, vocab, names)
		}
		if !ok {
			return nil, fmt.Errorf("cannot tell the name in %q (%d spaces) of its description %q", e.token, e.spaces, desc)
		}
		if name != "auto" && !strings.HasSuffix(name, "_auto") {
			width = len(name) + e.spaces
		}
		names = append(names, name)
	}
	return names, nil
}

// validAlgName: MPICH's values are lower case words joined by "_".
var validAlgName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`).MatchString

// byWidth is the name of the block's width.
func byWidth(e algEntry, width int, vocab map[string]bool) (string, bool) {
	n := width - e.spaces
	if n <= 0 || n >= len(e.token) {
		return "", false
	}
	word, name := e.token[:len(e.token)-n], e.token[len(e.token)-n:]
	return name, validAlgName(name) && plainWord(word, e.token, vocab)
}

// plainWord tells whether word, cut from the front of token, can end a
// description's line: a word of the descriptions, or a word of letters
// only that does not cut one of them short ("algor" of "algorithm").
func plainWord(word, token string, vocab map[string]bool) bool {
	if vocab[word] {
		return true
	}
	if !lettersOnly(word) {
		return false
	}
	for w := range vocab {
		if len(w) > len(word) && strings.HasPrefix(w, word) && strings.HasPrefix(token, w) {
			return false
		}
	}
	return true
}

// byWords is the split of the token that scores best, when one does:
// 2 for a word of the descriptions left before the name, 2 for a name
// that starts with one ("smp", "sched"), 1 more when a name of the same
// variable started so ("sched" of "sched_auto"). So "algorithm" + "smp",
// not "algorithms" + "mp"; "algorithms" + "sched_binomial", not
// "algorithm" + "ssched_binomial".
func byWords(e algEntry, vocab map[string]bool, told []string) (string, bool) {
	best, bestScore, tie := "", 0, false
	for i := 1; i < len(e.token); i++ {
		word, name := e.token[:i], e.token[i:]
		if !validAlgName(name) || !lettersOnly(word) {
			continue
		}
		score := 0
		if vocab[word] {
			score += 2
		}
		if first := firstWord(name); vocab[first] {
			score += 2
		}
		for _, t := range told {
			if strings.Contains(name, "_") && firstWord(t) == firstWord(name) {
				score++
				break
			}
		}
		switch {
		case score > bestScore, score == bestScore && vocab[word]:
			// Of two words that score alike the longer, which the
			// shorter cuts short ("algo" of "algorithm"), stands.
			best, bestScore, tie = name, score, false
		case score == bestScore:
			tie = true
		}
	}
	return best, bestScore >= 2 && !tie
}

// firstWord is a name up to its first "_".
func firstWord(name string) string { return strings.SplitN(name, "_", 2)[0] }

// lettersOnly tells whether s is a word of letters.
func lettersOnly(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// gluedRE is an entry's word run, spaces and dash.
var gluedRE = regexp.MustCompile(`[A-Za-z0-9_]+ +- `)

// wordRE finds the words of a description: letters between spaces, signs
// and hyphens.
var wordRE = regexp.MustCompile(`[A-Za-z]+`)

// descWords are the words of the descriptions, the glued entries left
// out ("algorithmsmp" is no word).
func descWords(vars []mpi.ControlVar) map[string]bool {
	words := map[string]bool{}
	for _, v := range vars {
		text := gluedRE.ReplaceAllString(v.Desc, " ")
		for _, loc := range wordRE.FindAllStringIndex(text, -1) {
			// One letter is no help ("a" + "lgorithmsmp").
			if loc[1]-loc[0] > 1 && bounded(text, loc[0], loc[1]) {
				words[text[loc[0]:loc[1]]] = true
			}
		}
	}
	return words
}

// bounded tells whether text[i:j] stands alone: no digit or "_" glued to
// either side (MPIR_CVAR_BCAST is no word).
func bounded(text string, i, j int) bool {
	glued := func(b byte) bool { return b == '_' || b >= '0' && b <= '9' }
	return (i == 0 || !glued(text[i-1])) && (j == len(text) || !glued(text[j]))
}
