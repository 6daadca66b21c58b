package imbtext

import "mpibench/analysis/result"

// hasMsgRate marks IMB-MPI1 2021's Uniband and Biband, whose table is
// #bytes, #repetitions, Mbytes/sec and Msg/sec (IMB 2021.11's IMB_output.c,
// OUT_BW_AND_MSG_RATE); their records carry the window they ran with.
func hasMsgRate(r *result.Record) bool { return r.Window > 0 }
