package kernel

// Call is one call of the PGMPI guidelines, in the order of pgmpi.h: the
// ten MPI functions, then the mock-ups of GL3-GL17.
type Call int

// Calls is the number of calls, in both builds: the analysis side counts
// on the table without MPI too. pgmpi.go checks it against pgmpi.h.
const Calls Call = 25

// Input is the input value at index i of rank's vector.
func Input(rank, i int) int32 { return int32(rank*1000003 + i + 1) }
