package imbtext

import (
	"fmt"

	"mpibench/analysis/result"
)

// trulyPassive marks IMB-RMA's Truly_passive_put, whose table is #bytes,
// #repetitions, t_pure[usec], t_ovrl[usec] (IMB_output.c, OUT_OVERLAP
// under RMA), without MODE line.
func trulyPassive(r *result.Record) bool {
	return r.Suite == result.SuiteRMA && r.Benchmark == "Truly_passive_put"
}

// trulyPassiveCells are its two figures: the origin's put time with the
// target waiting in MPI_Barrier, and with the target computing.
func trulyPassiveCells(r *result.Record) string {
	return fmt.Sprintf("%13.2f%13.2f", r.TPure, r.TOvrl)
}

// timeAndBW marks the tables of one time and Mbytes/sec (IMB 2021.11's
// IMB_output.c, OUT_TIME_AND_BW): single transfers outside -multi 0, and
// IMB-RMA's passive-target transfers of one origin to every other rank
// (MultPassiveTransfer, class "passive"), whose time is the origin's.
func timeAndBW(r *result.Record) bool {
	return (r.Class == "single" || r.Class == "passive") && r.Multi != 0
}
