package mpi

// noPersist, set at link time (go build -ldflags
// "-X mpibench/mpi.noPersist=1"), makes PersistAPI report no persistent
// collectives: the tests' stand-in for a library without them.
var noPersist string
