package kernel

// noPersist, set at link time (go build -ldflags
// "-X mpibench/suites/imb/kernel.noPersist=1"), makes PersistAPI report no persistent
// collectives: the tests' stand-in for a library without them.
var noPersist string
