package report

import "mpibench/result"

// timeAndBW marks the tables of one time and Mbytes/sec (IMB 2021.11's
// IMB_output.c, OUT_TIME_AND_BW): single transfers outside -multi 0, and
// IMB-RMA's passive-target transfers of one origin to every other rank
// (MultPassiveTransfer, class "passive"), whose time is the origin's.
func timeAndBW(r *result.Record) bool {
	return (r.Class == "single" || r.Class == "passive") && r.Multi != 0
}
