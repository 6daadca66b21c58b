package compare

import (
	"bytes"
	"encoding/json"
)

// JSONLines is the changes of the comparisons as JSON Lines, one Change
// per line: a Change, not a result.Record, since a comparison is no
// measurement and `mpibench report` would draw a Record as one.
func JSONLines(cs []*Comparison) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, c := range cs {
		for i := range c.Changes {
			if err := enc.Encode(&c.Changes[i]); err != nil {
				return nil, err
			}
		}
	}
	return b.Bytes(), nil
}
