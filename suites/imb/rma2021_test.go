package imb

import (
	"slices"
	"testing"

	"mpibench/analysis/result"
)

// TestRMATable: IMB-RMA's ALLC order for what mpibench has, DEFC (without
// Get_local and Get_all_local) as the default list: all 19 of IMB-RMA's
// benchmarks.
func TestRMATable(t *testing.T) {
	allc := []string{"Unidir_put", "Unidir_get", "Bidir_put", "Bidir_get", "One_put_all", "One_get_all",
		"All_put_all", "All_get_all", "Put_local", "Get_local", "Put_all_local", "Get_all_local",
		"Exchange_put", "Exchange_get", "Accumulate", "Get_accumulate", "Fetch_and_op", "Compare_and_swap",
		"Truly_passive_put"}
	var have, defc []string
	for _, n := range allc {
		have = append(have, n)
		if n != "Get_local" && n != "Get_all_local" {
			defc = append(defc, n)
		}
	}
	if got := RMASuite.Names(); !slices.Equal(got, have) {
		t.Errorf("table %v, want %v", got, have)
	}
	if got := RMASuite.DefaultNames(); !slices.Equal(got, defc) {
		t.Errorf("default list %v, want %v", got, defc)
	}
	if DefaultTimeLimit[RMASuite.Name] != 10 {
		t.Errorf("rma -time default %g, want SECS_PER_SAMPLE 10", DefaultTimeLimit[RMASuite.Name])
	}
}

// TestRMARates: Mbytes/sec in IMB 2021's MB (10^6 bytes), times P−1 for
// One_put_all, none for All_put_all.
func TestRMARates(t *testing.T) {
	for _, c := range []struct {
		name  string
		procs int
		want  float64
	}{{"Unidir_put", 2, 32}, {"One_put_all", 3, 64}, {"Put_all_local", 2, 32}, {"All_put_all", 3, 0}, {"One_get_all", 1, 0}} {
		b, _ := RMASuite.Lookup(c.name)
		r := &result.Record{NProcs: c.procs, Bytes: 64, TMax: 2}
		if rmaRates(r, b); r.MBps != c.want {
			t.Errorf("%s on %d: %g Mbytes/sec, want %g", c.name, c.procs, r.MBps, c.want)
		}
	}
}
