package result

import "fmt"

// The suite names: the command words of mpibench and Record.Suite. They
// live here, in a package without MPI, so that report, merge and the
// guideline check use the same names as the suites that write records.
const (
	SuiteMPI1   = "mpi1"   // IMB-MPI1
	SuiteEXT    = "ext"    // IMB-EXT
	SuiteIO     = "io"     // IMB-IO
	SuiteBeff   = "beff"   // b_eff
	SuiteBeffIO = "beffio" // b_eff_io
	SuiteSkampi = "skampi" // SKaMPI
	SuitePGMPI  = "pgmpi"  // PGMPI's measurements and guideline violations
	SuiteP2P    = "p2p"    // IMB-P2P
	SuiteNBC    = "nbc"    // IMB-NBC (Intel MPI Benchmarks 2021)
	SuiteMPI4   = "mpi4"   // IMB-MPI4 (Intel MPI Benchmarks 2021)
	SuiteRMA    = "rma"    // IMB-RMA (Intel MPI Benchmarks 2021)
	SuiteMT     = "mt"     // IMB-MT (Intel MPI Benchmarks 2021)
	SuiteOSU    = "osu"    // OSU Micro-Benchmarks 7.4
	SuiteLinks  = "links"  // every link at once, mpiGraph's pattern
)

// knownSuites are the suites whose records mpibench writes: a line of
// another (or none) is no mpibench record, whatever else it holds
// (issue 26: JSON that mpibench did not write was read as an all-zero
// record).
var knownSuites = map[string]bool{SuiteMPI1: true, SuiteEXT: true, SuiteIO: true, SuiteBeff: true,
	SuiteBeffIO: true, SuiteSkampi: true, SuitePGMPI: true, SuiteP2P: true, SuiteNBC: true, SuiteMPI4: true,
	SuiteRMA: true, SuiteMT: true, SuiteOSU: true, SuiteLinks: true}

// notRecord says why a decoded line is not an mpibench record.
func notRecord(r *Record) error {
	if r.Suite == "" {
		return fmt.Errorf("not an mpibench record: no suite")
	}
	return fmt.Errorf("not an mpibench record: suite %q is none of mpibench's", r.Suite)
}
