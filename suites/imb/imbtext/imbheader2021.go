package imbtext

import (
	"strings"

	"mpibench/analysis/result"
)

// blanks2021 are the spots where the headers of IMB 2021.11's programs
// differ, each suite's declare_args (src_cpp/<suite>/<suite>_suite.cpp):
// a blank after the calling sequence, a blank after the reductions'
// datatype, and the two lines after MPI_Op ("#" or "# ").
type blanks2021 struct{ cmd, red, rule string }

// headerBlanks2021 are those of MPI1_suite.cpp, EXT_suite.cpp,
// NBC_suite.cpp, RMA_suite.cpp and MPI4_suite.cpp.
var headerBlanks2021 = map[string]blanks2021{
	result.SuiteMPI1: {" ", " ", "# "},
	result.SuiteEXT:  {"", "", "#"},
	result.SuiteNBC:  {"", "", "#"},
	result.SuiteRMA:  {" ", "", "# "},
	result.SuiteMPI4: {"", "", "# "},
}

// listNotes2021 are the comments IMB 2021.11's programs print under a
// benchmark's name in the list (descr->comments): only IMB-RMA has any
// (src_cpp/RMA/RMA_benchmark.cpp, Compare_and_swap, Truly_passive_put).
var listNotes2021 = map[string][]string{
	result.SuiteRMA + "/Compare_and_swap": {"Uses MPI_INT data type"},
	result.SuiteRMA + "/Truly_passive_put": {"The benchmark measures execution time of MPI_Put for 2 cases:",
		"1) The target is waiting in MPI_Barrier call (t_pure value)",
		"2) The target performs computation and then enters MPI_Barrier routine (t_ovrl value)"},
}

// start2021 is Start for the suites that print IMB 2021.11's header: mpi1
// and ext with -imb 2021, nbc, rma and mpi4. It is the general information
// block as their programs print it (IMB_output.c, IMB_general_info, and
// the suite's declare_args), line for line: a rule of 64 dashes, the
// title, the machine lines without mpibench's MPI Library and Hosts lines
// (records keep them), "Message lengths were user defined" in place of the
// minimum and maximum under -msglen, the datatype lines, no -time line.
func (t *IMBText) start2021(h result.Header) error {
	c := h.Context
	b := headerBlanks2021[h.Suite]
	rule := "#" + strings.Repeat("-", 64)
	t.Printf("%s\n#    %s (IMB 2021.11), %s part\n%s\n", rule, c.Tool, h.Part, rule)
	for _, kv := range [][2]string{
		{"Date", asctime(c.Start)}, {"Machine", c.Machine}, {"System", c.System}, {"Release", c.Release},
		{"Version", c.Version}, {"MPI Version", c.MPIVersion}, {"MPI Thread Environment", c.ThreadLevel},
	} {
		t.Printf("# %-22s: %s\n", kv[0], kv[1])
	}
	t.Printf("\n\n# Calling sequence was: \n\n# mpibench %s%s\n\n", strings.Join(c.Args, " "), b.cmd)
	if h.UserLens {
		t.Printf("# Message lengths were user defined\n")
	} else {
		t.Printf("# Minimum message length in bytes:   %d\n", h.MinLen)
		t.Printf("# Maximum message length in bytes:   %d\n", h.MaxLen)
	}
	data, red := datatypes(c.Options)
	t.Printf("#\n# MPI_Datatype                   :   %s \n", data)
	t.Printf("# MPI_Datatype for reductions    :   %s%s\n", red, b.red)
	t.Printf("# MPI_Op                         :   MPI_SUM  \n%s\n%s\n", b.rule, b.rule)
	return t.benchList(h)
}

// datatypes are the MPI names of the datatypes of a run (IMB-MPI1
// 2021.11's -data_type and -red_data_type, in the records' options):
// MPI_BYTE and MPI_FLOAT unless given.
func datatypes(options map[string]string) (data, red string) {
	data, red = "MPI_BYTE", "MPI_FLOAT"
	if t, ok := options["data_type"]; ok {
		data = "MPI_" + strings.ToUpper(t)
	}
	if t, ok := options["red_data_type"]; ok {
		red = "MPI_" + strings.ToUpper(t)
	}
	return data, red
}
