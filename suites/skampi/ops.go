package skampi

import (
	"strings"

	"mpibench/mpi"
)

// The patterns of the paper, section 2.1, as Record.Class.
const (
	PingPong     = "pingpong"
	Collective   = "collective"
	MasterWorker = "master-worker"
	Simple       = "simple"
)

// The varied parameters, as Record.Param.
const (
	OverBytes      = "bytes"
	OverProcs      = "procs"
	OverWorkpieces = "workpieces"
	OverNone       = "none"
)

// Op is one operation a measurement may name: its name in the
// configuration file, the MPI calls as Record.Mode shows them, and the
// C kernel.
type Op struct {
	Name string
	Mode string
	op   mpi.SkampiOp
}

// ops lists the operations of each pattern, and params the parameters
// each pattern may be varied over.
var (
	ops = map[string][]Op{
		PingPong: {
			{"Bsend_Recv", "MPI_Bsend/MPI_Recv", mpi.SkampiPPBsendRecv},
			{"Isend_Recv", "MPI_Isend/MPI_Recv", mpi.SkampiPPIsendRecv},
			{"Send_Iprobe_Recv", "MPI_Send/MPI_Iprobe+MPI_Recv", mpi.SkampiPPSendIprobeRecv},
			{"Send_Irecv", "MPI_Send/MPI_Irecv", mpi.SkampiPPSendIrecv},
			{"Send_Recv", "MPI_Send/MPI_Recv", mpi.SkampiPPSendRecv},
			{"Send_Recv_AT", "MPI_Send/MPI_Recv(MPI_ANY_TAG)", mpi.SkampiPPSendRecvAT},
			{"Sendrecv", "MPI_Sendrecv", mpi.SkampiPPSendrecv},
			{"Sendrecv_replace", "MPI_Sendrecv_replace", mpi.SkampiPPSendrecvReplace},
			{"Ssend_Recv", "MPI_Ssend/MPI_Recv", mpi.SkampiPPSsendRecv},
		},
		Collective: {
			{"Alltoall", "MPI_Alltoall", mpi.SkampiAlltoall},
			{"Barrier", "MPI_Barrier", mpi.SkampiBarrier},
			{"Bcast", "MPI_Bcast", mpi.SkampiBcast},
			{"Comm_split", "MPI_Comm_split", mpi.SkampiCommSplit},
			{"Reduce", "MPI_Reduce", mpi.SkampiReduce},
			{"Scan", "MPI_Scan", mpi.SkampiScan},
			{"Gather", "MPI_Gather", mpi.SkampiGather},
			{"Scatter", "MPI_Scatter", mpi.SkampiScatter},
			{"Allgather", "MPI_Allgather", mpi.SkampiAllgather},
			{"Allreduce", "MPI_Allreduce", mpi.SkampiAllreduce},
		},
		MasterWorker: {
			{"Bsend", "MPI_Bsend", mpi.SkampiMWBsend},
			{"Isend", "MPI_Isend", mpi.SkampiMWIsend},
			{"Recv_Any", "MPI_Recv(MPI_ANY_SOURCE)", mpi.SkampiMWRecvAny},
			{"Send", "MPI_Send", mpi.SkampiMWSend},
			{"Ssend", "MPI_Ssend", mpi.SkampiMWSsend},
			{"Waitany", "MPI_Waitany", mpi.SkampiMWWaitany},
			{"Waitsome", "MPI_Waitsome", mpi.SkampiMWWaitsome},
		},
		Simple: {
			{"Wtime", "MPI_Wtime", mpi.SkampiWtime},
			{"Comm_rank", "MPI_Comm_rank", mpi.SkampiCommRank},
			{"Comm_size", "MPI_Comm_size", mpi.SkampiCommSize},
			{"Iprobe_fail", "MPI_Iprobe", mpi.SkampiIprobeFail},
			{"Attr_get", "MPI_Comm_get_attr", mpi.SkampiAttrGet},
		},
	}
	params = map[string][]string{
		PingPong:     {OverBytes, OverNone},
		Collective:   {OverBytes, OverProcs, OverNone},
		MasterWorker: {OverBytes, OverProcs, OverWorkpieces, OverNone},
		Simple:       {OverNone},
	}
)

// lookupOp finds an operation of a pattern by name, case-insensitively.
func lookupOp(pattern, name string) (Op, bool) {
	for _, o := range ops[pattern] {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return Op{}, false
}

// opNames lists the operations of a pattern for error messages.
func opNames(pattern string) string {
	var n []string
	for _, o := range ops[pattern] {
		n = append(n, o.Name)
	}
	return strings.Join(n, ", ")
}

// Listed is one operation as `mpibench list` shows it.
type Listed struct {
	Pattern, Name, Calls string
}

// Operations lists every operation a configuration may name, pattern by
// pattern in the paper's order.
func Operations() []Listed {
	var out []Listed
	for _, p := range []string{PingPong, Collective, MasterWorker, Simple} {
		for _, op := range ops[p] {
			out = append(out, Listed{p, op.Name, op.Mode})
		}
	}
	return out
}
