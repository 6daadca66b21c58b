package skampi

import (
	"slices"

	"mpibench/run/journal"
)

// Order is the run order of cfg after the resumed run r (nil r: a fresh
// run): the measurements neither finished, crashed nor hung, in
// configuration order, then the crashed ones in the order they crashed
// (section 3.3: a measurement that crashed the run is retried last). The
// watchdog ended the run in a hung one; it is not measured again.
func Order(cfg *Config, r *journal.Resumed) []string {
	var names []string
	for _, m := range cfg.Measurements {
		if !r.IsDone(m.Name) && !r.IsHung(m.Name) && (r == nil || !slices.Contains(r.Crashed, m.Name)) {
			names = append(names, m.Name)
		}
	}
	if r != nil {
		for _, name := range r.Crashed {
			if cfg.Find(name) != nil {
				names = append(names, name)
			}
		}
	}
	return names
}
