package imb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkLine reads args (the command word first) for size processes as
// rank 0 of a job does (mpijob.Command.Check): the message of a bad
// command line, with which every rank exits 2; "" for a good one.
func checkLine(t *testing.T, size int, args ...string) string {
	t.Helper()
	s := SuiteByName(args[0])
	if s == nil {
		t.Fatalf("%v: no suite %q", args, args[0])
	}
	if err := s.Command().Check(args[1:], size); err != nil {
		return err.Error()
	}
	return ""
}

// TestFlagErrors: a bad value of IMB 2021's flags, a flag the suite's
// Intel program does not have, a bad type or cache flag, exits 2 naming
// the flag and the value (or the suites that take it), before any
// measurement. e2e/imb runs the first rows under mpirun, where every rank
// exits 2 with the message.
func TestFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		frag string
	}{
		{[]string{"mpi1", "-msglog", "5:3"}, `-msglog "5:3"`},
		{[]string{"mpi1", "-msglog", "31"}, `-msglog "31"`},
		{[]string{"mpi1", "-msglog", "a"}, `-msglog "a"`},
		{[]string{"mpi1", "-iter", "0"}, `-iter "0"`},
		{[]string{"mpi1", "-iter", "1,2,3,4"}, `-iter "1,2,3,4"`},
		{[]string{"mpi1", "-iter_policy", "sometimes"}, `-iter_policy "sometimes"`},
		{[]string{"mpi1", "-zero_size", "yes"}, `-zero_size "yes"`},
		{[]string{"ext", "-warm_up", "0"}, `-warm_up "0"`},
		{[]string{"mpi1", "-include", "NoSuch"}, `-include: unknown mpi1 benchmark "NoSuch"`},
		{[]string{"mpi1", "PingPong", "-exclude", "pingpong"}, "-exclude pingpong leaves no benchmark"},
		{[]string{"io", "-msglog", "3"}, "-msglog is a flag of mpibench mpi1, ext, nbc, mpi4 and rma, not of io"},
		{[]string{"ext", "-aggregate_mode", "both"}, `-aggregate_mode "both"`},
		{[]string{"mpi1", "-aggregate_mode", "aggregate"}, "-aggregate_mode is a flag of mpibench ext and rma, not of mpi1"},
		{[]string{"io", "-imb", "2021"}, "-imb 2021 is a flag of mpibench mpi1 and ext only"},
		{[]string{"mpi1", "-imb", "2020"}, `-imb "2020"`},
		{[]string{"mpi1", "-sync", "off"}, "add -imb 2021"},
		{[]string{"mpi1", "-imb", "2021", "-root_shift", "1"}, `-root_shift "1"`},
		{[]string{"mpi1", "-imb_barrier", "yes"}, `-imb_barrier "yes"`},
		{[]string{"rma", "-mem", "0"}, `-mem "0"`},
		{[]string{"ext", "-mem", "lots"}, `-mem "lots"`},
		{[]string{"ext", "-imb", "2021", "-sync", "off"}, "-sync is a flag of mpibench mpi1, nbc, mpi4 and rma, not of ext"},
		// nbc, mpi4 and rma, against their Intel programs' flags
		{[]string{"nbc", "-msglog", "5:3"}, `-msglog "5:3"`},
		{[]string{"nbc", "-msglog", "31"}, `-msglog "31": lengths above 2^30`},
		{[]string{"mpi4", "-iter", "0"}, `-iter "0"`},
		{[]string{"rma", "-iter", "1,2,3,4"}, `-iter "1,2,3,4"`},
		{[]string{"rma", "-iter_policy", "sometimes"}, `-iter_policy "sometimes"`},
		{[]string{"mpi4", "-zero_size", "no"}, `-zero_size "no"`},
		{[]string{"rma", "-warm_up", "0"}, `-warm_up "0"`},
		{[]string{"nbc", "-include", "Bcast"}, `-include: unknown nbc benchmark "Bcast"`},
		{[]string{"rma", "Unidir_put", "-exclude", "unidir_put"}, "-exclude unidir_put leaves no benchmark"},
		{[]string{"nbc", "-sync", "sometimes"}, "sometimes"},
		{[]string{"mpi4", "-root_shift", "yes"}, `-root_shift "yes"`},
		{[]string{"rma", "-aggregate_mode", "both"}, `-aggregate_mode "both"`},
		{[]string{"rma", "-zero_size", "off"}, "-zero_size is a flag of mpibench mpi1, ext, nbc and mpi4, not of rma " +
			"(IMB-RMA 2021.11 has none)"},
		{[]string{"nbc", "-aggregate_mode", "multi"}, "-aggregate_mode is a flag of mpibench ext and rma, not of nbc"},
		{[]string{"mpi4", "-aggregate_mode", "aggregate"}, "not of mpi4 (IMB-MPI4 2021.11 has none)"},
		{[]string{"mpi4", "-sync", "window"}, "-sync window is a flag of mpibench mpi1 and nbc"},
		{[]string{"rma", "-imb", "2021"}, "-imb 2021 is a flag of mpibench mpi1 and ext only"},
		{[]string{"io", "-list"}, "-list is a flag of mpibench mpi1, ext, nbc, mpi4 and rma, not of io"},
		// the data types and -off_cache (the values one by one:
		// types2021_test.go)
		{[]string{"mpi1", "-red_data_type", "byte"}, `-red_data_type "byte"`},
		{[]string{"mpi1", "-off_cache", "-1,128"}, `-off_cache "-1,128"`},
		{[]string{"ext", "-data_type", "int"}, "-data_type is a flag of mpibench mpi1 only"},
		{[]string{"ext", "-off_cache", "8"}, "-off_cache 8: a flag of IMB-EXT 2021 (IMB 3.0 has none); add -imb 2021"},
		{[]string{"nbc", "-sync", "window", "-off_cache", "8"}, "-off_cache with -sync window"},
		{[]string{"rma", "-off_cache", "8,0"}, `-off_cache "8,0"`},
		// -window_size: a bad value, or given to a suite without it
		{[]string{"mpi1", "Uniband", "-window_size", "0"}, "-window_size"},
		{[]string{"ext", "-window_size", "4"}, "-window_size"},
		{[]string{"mpi1", "Allreduce", "-sync", "on"}, "-sync on: IMB 2021's spelling"},
		// -disk: not a size, or given to a suite that writes no files
		{[]string{"io", "-iodir", t.TempDir(), "-disk", "-5", "S_Write_Indv"}, "-disk"},
		{[]string{"mpi1", "-disk", "1G", "PingPong"}, "-disk"},
	} {
		if msg := checkLine(t, 2, c.args...); !strings.Contains(msg, c.frag) {
			t.Errorf("%v: %q, want %q", c.args, msg, c.frag)
		}
	}
}

// TestBadInput: every bad command line or input file of mpi1 is refused
// before any measurement, with a message naming it. e2e/imb runs the
// rows that the results file decides under mpirun.
func TestBadInput(t *testing.T) {
	missingDir := filepath.Join(t.TempDir(), "missing")
	// e2e/testdata's files of bad lengths
	testdata := func(name string) string {
		p := filepath.Join(t.TempDir(), name)
		text := map[string]string{"negative.txt": "0\n1024\n-5\n", "notint.txt": "0\nsixteen\n"}[name]
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name   string
		np     int
		args   []string
		stderr []string // all must appear
	}{
		{"unknown benchmark", 2, []string{"NoSuchBench"}, []string{`"NoSuchBench"`, "PingPong", "PingPing", "Sendrecv",
			"Exchange", "Bcast", "Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Reduce", "Reduce_scatter",
			"Allreduce", "Barrier"}},
		{"negative length", 2, []string{"-msglen", testdata("negative.txt")}, []string{"negative.txt:3"}},
		{"non-integer length", 2, []string{"-msglen", testdata("notint.txt")}, []string{"notint.txt:2", "sixteen"}},
		{"map does not match the job", 2, []string{"-map", "3x3"}, []string{"3x3"}},
		{"map not PxQ", 2, []string{"-map", "axb"}, []string{"axb"}},
		{"multi 2", 2, []string{"-multi", "2"}, []string{"-multi"}},
		{"npmin 0", 2, []string{"-npmin", "0"}, []string{"-npmin"}},
		{"time 0", 2, []string{"-time", "0"}, []string{"-time", "-time off"}},
		{"unknown flag", 2, []string{"-bogus"}, []string{"-bogus"}},
		{"flag without value", 2, []string{"PingPong", "-msglen"}, []string{"-msglen"}},
		{"missing input file", 2, []string{"-input", filepath.Join(missingDir, "select")}, []string{"select"}},
		{"input file is a directory", 2, []string{"-input", t.TempDir()}, []string{t.Name()}},
		{"missing msglen file", 2, []string{"-msglen", filepath.Join(missingDir, "lengths")}, []string{"lengths"}},
		{"single transfer on 1 process", 1, []string{"PingPong", "PingPing"}, []string{"PingPong"}},
	} {
		msg := checkLine(t, c.np, append([]string{"mpi1"}, c.args...)...)
		if msg == "" {
			t.Errorf("%s: accepted", c.name)
		}
		for _, s := range c.stderr {
			if !strings.Contains(msg, s) {
				t.Errorf("%s: %q lacks %q", c.name, msg, s)
			}
		}
	}
}
