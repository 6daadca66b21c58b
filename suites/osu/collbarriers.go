package osu

// OSU 7.4 calls MPI_Barrier, untimed, around each size's passes in a
// layout of its own per test (c/mpi/collective/blocking/*.c and
// non_blocking/*.c, read at the size loop's level), and mpibench calls it
// as often and in the same places, so that a PMPI tool or a trace sees
// the same program (TestOSUBarrierCalls counts them against OSU's
// binaries). The barriers inside the timed loops are the C kernels'
// (mpi/osucoll.c, pass).
//
// A blocking test: pre before the timed loop, after once it ends (the
// loop's end and print_stats's). A non-blocking test: pre before the pure
// pass, between the pure and the overlap pass (after the one, before the
// other), after once the overlap pass ends; calculate_and_print_stats
// (c/util/osu_util_mpi.c) adds one more after its reductions.
type barrierLayout struct{ pre, between, after int }

var collBarriers = map[string]barrierLayout{
	"osu_allgather":             {1, 0, 2}, // osu_allgather.c: 135; 185, 215
	"osu_allgatherv":            {2, 0, 2}, // 149, 159; 207, 237
	"osu_allreduce":             {1, 0, 1}, // 140; 211
	"osu_alltoall":              {1, 0, 1}, // 140; 222
	"osu_alltoallv":             {2, 0, 1}, // 165, 176; 256 (and 138 once: programBarriers)
	"osu_alltoallw":             {2, 0, 1}, // osu_alltoallw.c: 180, 193; 266
	"osu_barrier":               {0, 0, 1}, // 113, after its one loop
	"osu_bcast":                 {0, 0, 1}, // 171
	"osu_gather":                {1, 0, 1}, // 134; 225
	"osu_gatherv":               {2, 0, 2}, // 146, 157; 222, 252
	"osu_reduce":                {1, 0, 1}, // 143; 229
	"osu_reduce_scatter":        {1, 0, 1}, // 164; 242
	"osu_reduce_scatter_block":  {1, 0, 1}, // 158; 234
	"osu_scatter":               {1, 0, 1}, // 143; 235
	"osu_scatterv":              {2, 0, 1}, // 156, 167; 255
	"osu_iallgather":            {1, 2, 1}, // osu_iallgather.c: 147; 194, 204; 271
	"osu_iallgatherv":           {2, 2, 1}, // 158, 172; 217, 239; 314
	"osu_iallreduce":            {1, 2, 1}, // 150; 196, 206; 272
	"osu_ialltoall":             {1, 2, 1}, // 155; 206, 217; 285
	"osu_ialltoallv":            {1, 2, 1}, // 188; 235, 253; 321
	"osu_ibarrier":              {0, 2, 1}, // 119, 129; 172
	"osu_ibcast":                {0, 2, 1}, // 181, 191; 254
	"osu_igather":               {0, 2, 1}, // 206, 220; 304
	"osu_igatherv":              {2, 3, 1}, // 153, 169; 227, 241, 250; 339
	"osu_ireduce":               {1, 2, 1}, // 150; 207, 217; 297
	"osu_ireduce_scatter":       {1, 2, 1}, // 165; 205, 211; 271
	"osu_ireduce_scatter_block": {1, 2, 1}, // 159; 199, 205; 265
	"osu_iscatter":              {0, 2, 1}, // 211, 220; 305
	"osu_iscatterv":             {1, 2, 1}, // 175; 232, 253; 341
	"osu_ialltoallw":            {1, 2, 1}, // osu_ialltoallw.c: 202; 247, 265; 332
	// c/mpi/collective/neighborhood (and one per datatype: typeBarriers).
	"osu_neighbor_allgather":   {1, 0, 2}, // osu_neighbor_allgather.c: 146; 188, 214
	"osu_neighbor_allgatherv":  {1, 0, 2}, // 163; 206, 232
	"osu_neighbor_alltoall":    {1, 0, 2}, // 145; 187, 213
	"osu_neighbor_alltoallv":   {1, 0, 1}, // 174; 243
	"osu_neighbor_alltoallw":   {1, 0, 2}, // 189; 231, 257
	"osu_ineighbor_allgather":  {1, 2, 1}, // osu_ineighbor_allgather.c: 157; 194, 204; 269
	"osu_ineighbor_allgatherv": {1, 2, 1}, // 173; 210, 226; 291
	"osu_ineighbor_alltoall":   {1, 2, 1}, // 156; 193, 203; 268
	"osu_ineighbor_alltoallv":  {1, 2, 1}, // 184; 221, 231; 296
	"osu_ineighbor_alltoallw":  {1, 2, 1}, // 199; 235, 245; 309
	// c/mpi/collective/persistent: pre is the barrier right after the
	// request is made (the kernel's: kernel.Coll.PreBarriers), after the
	// loop's end and the one after MPI_Request_free.
	"osu_allgather_persistent":      {1, 0, 2}, // osu_allgather_persistent.c: 147; 189, 220
	"osu_allgatherv_persistent":     {1, 0, 2}, // 164; 207, 238
	"osu_allreduce_persistent":      {1, 0, 1}, // 145; 213
	"osu_alltoall_persistent":       {1, 0, 1}, // 162; 234
	"osu_alltoallv_persistent":      {1, 0, 1}, // 192; 265 (and 148 once: programBarriers)
	"osu_alltoallw_persistent":      {1, 0, 1}, // 211; 283
	"osu_barrier_persistent":        {0, 0, 1}, // 118, after its one loop
	"osu_bcast_persistent":          {0, 0, 1}, // 175
	"osu_gather_persistent":         {1, 0, 1}, // 144; 212
	"osu_gatherv_persistent":        {1, 0, 2}, // 162; 206, 237
	"osu_reduce_persistent":         {1, 0, 1}, // 147; 218
	"osu_reduce_scatter_persistent": {1, 0, 1}, // 180; 253
	"osu_scatter_persistent":        {1, 0, 1}, // 161; 232
	"osu_scatterv_persistent":       {1, 0, 1}, // 180; 251
}

// typeBarriers are the MPI_Barrier calls a test makes once per datatype,
// after its header: osu_neighbor_allgatherv.c 139, osu_neighbor_alltoallv.c
// 148, osu_neighbor_alltoallw.c 161. (The cartesian topology's one, in
// omb_neighborhood_create, is kernel.CartDims's.)
func typeBarriers(name string) int {
	switch name {
	case "osu_neighbor_allgatherv", "osu_neighbor_alltoallv", "osu_neighbor_alltoallw":
		return 1
	}
	return 0
}

// programBarriers are the MPI_Barrier calls a test makes once, before
// (first) or after its sizes: osu_multi_lat.c's two around its run and
// osu_alltoallv.c's (and osu_alltoallv_persistent.c's, line 148) before
// its datatype loop.
func programBarriers(name string, first bool) int {
	switch {
	case name == "osu_multi_lat":
		return 1
	case (name == "osu_alltoallv" || name == "osu_alltoallv_persistent") && first:
		return 1
	}
	return 0
}
