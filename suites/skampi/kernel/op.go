package kernel

// Op is one operation of a SKaMPI pattern.
type Op int

// The operations, in the order of skampi.h.
const (
	Empty     Op = iota // timer pair alone on rank 0
	CollEmpty           // barrier, timer, barrier: the collective's empty measurement

	PPBsendRecv
	PPIsendRecv
	PPSendIprobeRecv
	PPSendIrecv
	PPSendRecv
	PPSendRecvAT
	PPSendrecv
	PPSendrecvReplace
	PPSsendRecv

	Alltoall
	Barrier
	Bcast
	CommSplit
	Reduce
	Scan
	Gather
	Scatter
	Allgather
	Allreduce

	MWBsend
	MWIsend
	MWRecvAny
	MWSend
	MWSsend
	MWWaitany
	MWWaitsome

	Wtime
	CommRank
	CommSize
	IprobeFail
	AttrGet
)
