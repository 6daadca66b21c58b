package skampi

import (
	"strings"

	"mpibench/suites/skampi/kernel"
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
	op   kernel.Op
}

// ops lists the operations of each pattern, and params the parameters
// each pattern may be varied over.
var (
	ops = map[string][]Op{
		PingPong: {
			{"Bsend_Recv", "MPI_Bsend/MPI_Recv", kernel.PPBsendRecv},
			{"Isend_Recv", "MPI_Isend/MPI_Recv", kernel.PPIsendRecv},
			{"Send_Iprobe_Recv", "MPI_Send/MPI_Iprobe+MPI_Recv", kernel.PPSendIprobeRecv},
			{"Send_Irecv", "MPI_Send/MPI_Irecv", kernel.PPSendIrecv},
			{"Send_Recv", "MPI_Send/MPI_Recv", kernel.PPSendRecv},
			{"Send_Recv_AT", "MPI_Send/MPI_Recv(MPI_ANY_TAG)", kernel.PPSendRecvAT},
			{"Sendrecv", "MPI_Sendrecv", kernel.PPSendrecv},
			{"Sendrecv_replace", "MPI_Sendrecv_replace", kernel.PPSendrecvReplace},
			{"Ssend_Recv", "MPI_Ssend/MPI_Recv", kernel.PPSsendRecv},
		},
		Collective: {
			{"Alltoall", "MPI_Alltoall", kernel.Alltoall},
			{"Barrier", "MPI_Barrier", kernel.Barrier},
			{"Bcast", "MPI_Bcast", kernel.Bcast},
			{"Comm_split", "MPI_Comm_split", kernel.CommSplit},
			{"Reduce", "MPI_Reduce", kernel.Reduce},
			{"Scan", "MPI_Scan", kernel.Scan},
			{"Gather", "MPI_Gather", kernel.Gather},
			{"Scatter", "MPI_Scatter", kernel.Scatter},
			{"Allgather", "MPI_Allgather", kernel.Allgather},
			{"Allreduce", "MPI_Allreduce", kernel.Allreduce},
		},
		MasterWorker: {
			{"Bsend", "MPI_Bsend", kernel.MWBsend},
			{"Isend", "MPI_Isend", kernel.MWIsend},
			{"Recv_Any", "MPI_Recv(MPI_ANY_SOURCE)", kernel.MWRecvAny},
			{"Send", "MPI_Send", kernel.MWSend},
			{"Ssend", "MPI_Ssend", kernel.MWSsend},
			{"Waitany", "MPI_Waitany", kernel.MWWaitany},
			{"Waitsome", "MPI_Waitsome", kernel.MWWaitsome},
		},
		Simple: {
			{"Wtime", "MPI_Wtime", kernel.Wtime},
			{"Comm_rank", "MPI_Comm_rank", kernel.CommRank},
			{"Comm_size", "MPI_Comm_size", kernel.CommSize},
			{"Iprobe_fail", "MPI_Iprobe", kernel.IprobeFail},
			{"Attr_get", "MPI_Comm_get_attr", kernel.AttrGet},
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
