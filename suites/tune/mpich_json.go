package tune

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"mpibench/internal/textout"
)

// MPICH's collective selection is a JSON tree (src/mpi/coll/src/csel.c,
// MPICH 4.0.2): every value an object, {} at the leaves; the keys of an
// object are tried in their order ("comm_size<8", "avg_msg_size<=12288",
// "is_commutative=yes", ... "avg_msg_size=any" last), the first that holds
// leads on, and a key "algorithm=MPIR_Bcast_intra_binomial" ends the walk.
// MPICH reads either the tree it compiled into the library or, with
// MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE, a file in its place, never
// both: a collective the file lacks has no algorithm, and its first call
// asserts (mpir_coll.c, MPIR_Assert(cnt)). So the file tune writes is the
// library's own tree with the tuned collectives' branches rewritten, and
// the order of keys must survive: selNode keeps it.

// selNode is an object of the selection tree, its entries in order.
type selNode []selEntry

// selEntry is one key of an object with its value.
type selEntry struct {
	key string
	val selNode
}

// parseSelection reads a selection tree.
func parseSelection(data []byte) (selNode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	n, err := decodeSel(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("text after the selection's object")
	}
	return n, nil
}

// decodeSel reads one object.
func decodeSel(dec *json.Decoder) (selNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("want an object, got %v", tok)
	}
	n := selNode{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		val, err := decodeSel(dec)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", tok, err)
		}
		n = append(n, selEntry{key: tok.(string), val: val})
	}
	_, err = dec.Token() // '}'
	return n, err
}

// write writes n as indented JSON, two spaces a level.
func (n selNode) write(tw *textout.Writer, indent string) {
	if len(n) == 0 {
		tw.WriteString("{}")
		return
	}
	tw.WriteString("{\n")
	for i, e := range n {
		tw.Printf("%s  %s: ", indent, jsonString(e.key))
		e.val.write(tw, indent+"  ")
		if i < len(n)-1 {
			tw.WriteString(",")
		}
		tw.WriteString("\n")
	}
	tw.Printf("%s}", indent)
}

// jsonString is s as a JSON string, "<" left plain for the reader.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// find is the index of key in n, -1 when absent.
func (n selNode) find(key string) int {
	for i, e := range n {
		if e.key == key {
			return i
		}
	}
	return -1
}

// isLeaf tells whether n ends the walk: MPICH takes an object whose key is
// "algorithm=..." (or the device's "composition=...") as the algorithm.
func (n selNode) isLeaf() bool {
	return len(n) > 0 && (strings.HasPrefix(n[0].key, "algorithm=") || strings.HasPrefix(n[0].key, "composition="))
}

// leaves calls fn with the key of every leaf of n.
func (n selNode) leaves(fn func(key string)) {
	if n.isLeaf() {
		fn(n[0].key)
		return
	}
	for _, e := range n {
		e.val.leaves(fn)
	}
}

// defaultMarker starts MPICH's compiled selections.
var defaultMarker = []byte(`{"collective=`)

// mpichDefaultSelection finds MPICH's own selection in the bytes of its
// library: MPICH compiles it in as a C string (MPII_coll_generic_json of
// src/mpi/coll/src/csel_json_autogen.c, made from
// maint/tuning/coll/mpir/generic.json), a hidden symbol, so it is looked
// for by content: the NUL-terminated strings that start with
// {"collective= and parse, of which the one whose algorithms are all
// MPIR_'s (beside it sit the CH4 device's selection of MPIDI_
// compositions and its shared-memory module's of MPIDI_POSIX_
// algorithms).
func mpichDefaultSelection(lib []byte, name string) (selNode, error) {
	var found []selNode
	for off := 0; ; {
		i := bytes.Index(lib[off:], defaultMarker)
		if i < 0 {
			break
		}
		start := off + i
		end := bytes.IndexByte(lib[start:], 0)
		if end < 0 {
			break
		}
		off = start + end
		if sel, err := parseSelection(lib[start:off]); err == nil && mpirOnly(sel) {
			found = append(found, sel)
		}
	}
	if len(found) != 1 {
		return nil, fmt.Errorf("%s holds %d collective selections of MPIR_ algorithms, want 1 (MPICH's own, "+
			"MPII_coll_generic_json, which the tuning file must repeat for the collectives it leaves alone); "+
			"is it MPICH 3.4 or later?", name, len(found))
	}
	return found[0], nil
}

// mpirOnly tells whether every leaf of sel is an MPIR_ algorithm.
func mpirOnly(sel selNode) bool {
	ok := len(sel) > 0
	sel.leaves(func(key string) {
		ok = ok && strings.HasPrefix(key, "algorithm=MPIR_")
	})
	return ok
}
