package result

// OSUNBC is the row of an OSU non-blocking collective test (mpibench osu
// osu_iallreduce, ...; OSU 7.4's calculate_and_print_stats): µs per
// iteration averaged over the ranks. Overall is the overlap pass's time
// (call, dummy compute, MPI_Test calls, MPI_Wait), Compute the dummy
// compute without the MPI_Test calls, Init the call, Test the MPI_Test
// calls (-t), Wait MPI_Wait, Pure the pure pass's latency (call and
// MPI_Wait, no compute) with its minimum and maximum over the ranks, and
// Overlap max(0, 100 - (Overall - Compute) / Pure · 100) in %.
type OSUNBC struct {
	Overall float64 `json:"overall"`
	Compute float64 `json:"compute"`
	Init    float64 `json:"init"`
	Test    float64 `json:"test"`
	Wait    float64 `json:"wait"`
	Pure    float64 `json:"pure"`
	PureMin float64 `json:"pure_min"`
	PureMax float64 `json:"pure_max"`
	Overlap float64 `json:"overlap"`
}

// osuNBC reads an OSUNBC object for the fast decoder (decode.go); null
// and anything else unexpected are left to encoding/json.
func (p *parser) osuNBC(v **OSUNBC) bool {
	n := &OSUNBC{}
	fields := map[string]*float64{"overall": &n.Overall, "compute": &n.Compute, "init": &n.Init, "test": &n.Test,
		"wait": &n.Wait, "pure": &n.Pure, "pure_min": &n.PureMin, "pure_max": &n.PureMax, "overlap": &n.Overlap}
	ok := p.object(func(k []byte) bool {
		f, known := fields[string(k)]
		return known && p.float(f)
	})
	if ok {
		*v = n
	}
	return ok
}
