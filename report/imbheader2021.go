package report

import (
	"strings"

	"mpibench/result"
)

// start2021 is Start for a run with -imb 2021: the general information
// block as IMB-MPI1 2021.11 prints it (IMB_output.c, IMB_general_info and
// IMB_print_header), line for line: a rule of 64 dashes, the title, the
// machine lines without mpibench's MPI Library and Hosts lines (records
// keep them), "Message lengths were user defined" in place of the
// minimum and maximum under -msglen, the datatype lines, no -time line.
func (t *IMBText) start2021(h result.Header) error {
	c := h.Context
	rule := "#" + strings.Repeat("-", 64)
	t.printf("%s\n#    %s (IMB 2021.11), %s part\n%s\n", rule, c.Tool, h.Part, rule)
	for _, kv := range [][2]string{
		{"Date", asctime(c.Start)}, {"Machine", c.Machine}, {"System", c.System}, {"Release", c.Release},
		{"Version", c.Version}, {"MPI Version", c.MPIVersion}, {"MPI Thread Environment", c.ThreadLevel},
	} {
		t.printf("# %-22s: %s\n", kv[0], kv[1])
	}
	t.printf("\n\n# Calling sequence was: \n\n# mpibench %s \n\n", strings.Join(c.Args, " "))
	if h.UserLens {
		t.printf("# Message lengths were user defined\n")
	} else {
		t.printf("# Minimum message length in bytes:   %d\n", h.MinLen)
		t.printf("# Maximum message length in bytes:   %d\n", h.MaxLen)
	}
	data, red := datatypes(c.Options)
	t.printf("#\n# MPI_Datatype                   :   %s \n", data)
	if h.Suite == result.SuiteEXT {
		// IMB-EXT 2021.11 writes these lines without their trailing
		// blanks (src_cpp/EXT/EXT_suite.cpp, BenchmarkSuite::declare_args).
		t.printf("# MPI_Datatype for reductions    :   %s\n", red)
		t.printf("# MPI_Op                         :   MPI_SUM  \n#\n#\n")
		return t.benchList(h)
	}
	t.printf("# MPI_Datatype for reductions    :   %s \n", red)
	t.printf("# MPI_Op                         :   MPI_SUM  \n# \n# \n")
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
