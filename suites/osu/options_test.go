package osu

import (
	"slices"
	"strings"
	"testing"

	"mpibench/internal/cli"
)

// TestParseDefaults: OSU 7.4's defaults per kind (osu_util.c:
// process_options) and its small/large split.
func TestParseDefaults(t *testing.T) {
	for _, c := range []struct {
		bench                string
		min, max             int64
		iters, skip, il, sl  int
		window, validationWU int
	}{
		{"osu_latency", 0, 1 << 22, 10000, 100, 1000, 10, 64, 0},
		{"bw", 1, 1 << 22, 100, 10, 20, 2, 64, 0},
		{"osu_mbw_mr", 1, 1 << 22, 100, 10, 20, 2, 64, 0},
		{"multi_lat", 0, 1 << 22, 10000, 100, 1000, 10, 64, 0},
	} {
		o, err := Parse([]string{c.bench})
		if err != nil {
			t.Fatal(err)
		}
		got := []int64{o.MinSize, o.MaxSize, int64(o.Iterations), int64(o.Skip), int64(o.IterationsLarge),
			int64(o.SkipLarge), int64(o.Window), int64(o.ValidationWarmup)}
		want := []int64{c.min, c.max, int64(c.iters), int64(c.skip), int64(c.il), int64(c.sl), int64(c.window),
			int64(c.validationWU)}
		if !slices.Equal(got, want) || !slices.Equal(o.Types, []string{"MPI_CHAR"}) {
			t.Errorf("%s: %v, want %v", c.bench, got, want)
		}
		if i, s := o.Counts(8192); i != c.iters || s != c.skip {
			t.Errorf("%s: 8192 bytes take %d, %d", c.bench, i, s)
		}
		if i, s := o.Counts(8193); i != c.il || s != c.sl {
			t.Errorf("%s: 8193 bytes take %d, %d", c.bench, i, s)
		}
	}
}

// TestParseFlags: getopt's spellings and OSU's meanings.
func TestParseFlags(t *testing.T) {
	o, err := Parse([]string{"osu_bw", "-m4K:1M", "-i", "7", "-x3", "-W", "8", "-c", "-z", "-u", "2", "-T", "MPI_INT",
		"--type=mpi_float", "-b", "multiple", "--samples", "-json", "f.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if o.MinSize != 4096 || o.MaxSize != 1<<20 || o.Iterations != 7 || o.IterationsLarge != 7 || o.Skip != 3 ||
		o.SkipLarge != 3 || o.Window != 8 || !o.Validate || !slices.Equal(o.Percentiles, []int{50, 90, 99}) ||
		o.ValidationWarmup != 2 || !slices.Equal(o.Types, []string{"MPI_INT", "MPI_FLOAT"}) || !o.MultipleBuffers ||
		!o.Samples || o.JSON != "f.jsonl" {
		t.Errorf("parsed %+v", o)
	}
	if got := o.Sizes(); !slices.Equal(got, []int64{4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1 << 20}) {
		t.Errorf("sizes %v", got)
	}
	o, _ = Parse([]string{"latency", "-m", "0:3", "-z5,95", "-D", "vect:8:3"})
	if !slices.Equal(o.Sizes(), []int64{0, 1, 2}) || !slices.Equal(o.Percentiles, []int{5, 95}) ||
		o.DDT.String() != "vect:8:3" {
		t.Errorf("parsed %+v, sizes %v", o, o.Sizes())
	}
	o, _ = Parse([]string{"bw", "-m", "0:3"}) // set_min_message_size refuses 0: the default stays
	if !slices.Equal(o.Sizes(), []int64{1, 2}) {
		t.Errorf("bw -m 0:3: sizes %v", o.Sizes())
	}
	o, _ = Parse([]string{"bw", "-m", "16"})
	if o.MinSize != 1 || o.MaxSize != 16 {
		t.Errorf("bw -m 16: %d:%d", o.MinSize, o.MaxSize)
	}
}

// TestParseRefusals: what OSU refuses, and what it takes silently (atoi)
// and mpibench refuses, with the flag named; all usage errors.
func TestParseRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"osu_nope"}, `unknown benchmark "osu_nope"`},
		{[]string{"-m", "4"}, "name a benchmark first"},
		{[]string{"latency", "-W", "4"}, "invalid option -W"},
		{[]string{"latency", "-f"}, "invalid option -f"},
		{[]string{"latency", "--window-size=4"}, "--window-size is not one of this benchmark's"},
		{[]string{"mbw_mr", "-m", "1:4G"}, "messages of 2 GiB or more: osu_mbw_mr has no large-count kernel"},
		{[]string{"bw", "-m", "1:4G", "-T", "mpi_int"}, "only -T mpi_char runs at these sizes"},
		{[]string{"latency", "-m", "1025G"}, "the most is 1 TiB"},
		{[]string{"osu_allreduce", "-m", "1:4G"}, "only -T mpi_float runs at these sizes for osu_allreduce"},
		{[]string{"osu_bcast", "-m", "1:4G", "-T", "mpi_int"}, "only -T mpi_char runs at these sizes for osu_bcast"},
		{[]string{"osu_reduce", "-m", "4G", "-T", "mpi_float", "-l"}, "-l (MPI_IN_PLACE) does not run"},
		{[]string{"osu_alltoall", "-m", "4G"}, "osu_alltoall has no large-count kernel"},
		{[]string{"osu_iallreduce", "-m", "4G", "-T", "mpi_float"}, "osu_iallreduce has no large-count kernel"},
		{[]string{"latency", "-m", "9223372036854775807G"}, "bad size"},
		{[]string{"bw", "-m", "8:4"}, "the minimum 8 is above the maximum 4"},
		{[]string{"bw", "-m", "x"}, `-m x: bad size "x"`},
		{[]string{"bw", "-i", "0"}, "-i 0: want an integer from 1"},
		{[]string{"bw", "-x", "-1"}, "-x -1: want an integer from 0"},
		{[]string{"bw", "-W"}, "-W: missing its value"},
		{[]string{"bw", "-u", "11", "-c"}, "at most 10"},
		{[]string{"latency", "-c", "-D", "cont"}, "derived data types do not support validation"},
		{[]string{"latency", "-D", "cont", "-c"}, "derived data types do not support validation"},
		{[]string{"latency", "-D", "vect:4"}, "want cont, vect:STRIDE:BLOCK or indx:FILE"},
		{[]string{"allreduce", "-D", "cont"}, "invalid option -D"}, // OSU 7.4's getopt string has no D
		{[]string{"ibcast", "-D", "cont", "-c"}, "derived data types do not support validation"},
		{[]string{"latency", "-D", "indx:/nonexistent"}, "/nonexistent"},
		{[]string{"latency", "-T", "mpi_double"}, "-T mpi_double: want mpi_char"},
		{[]string{"latency", "-T", "all", "-T", "mpi_int"}, "at most 3 datatypes"},
		{[]string{"bw", "-z101"}, "percentiles must be between 0 and 100"},
		{[]string{"bw", "-z1,2,3,4,5,6"}, "at most 5 percentiles"},
		{[]string{"bw", "-clog"}, "validation logs"},
		{[]string{"bw", "-cz"}, "write -c -z"},
		{[]string{"bw", "-G", "tty"}, "graphs"},
		{[]string{"mbw_mr", "-R", "2"}, "-R 2: want 0 or 1"},
		{[]string{"mbw_mr", "-V", "-W", "8"}, "-V cannot be used with -W"},
		{[]string{"bw", "stray"}, `unexpected argument "stray"`},
		{[]string{"bw", "H", "H", "H"}, `unexpected argument "H H H"`},
		{[]string{"latency", "-m", "8", "D", "D"}, `buffer location "D" (device memory): mpibench has host buffers only`},
		{[]string{"latency", "H", "MD"}, `buffer location "MD" (managed memory)`},
		{[]string{"latency", "H", "X"}, `buffer location "X": want H`},
		{[]string{"latency", "H", "H", "-m", "8"}, "-m after the buffer locations"},
		{[]string{"latency", "-d", "cuda"}, "option -d (--accelerator): only OSU 7.4 built with CUDA, ROCm or OpenACC"},
		{[]string{"allreduce", "--accelerator=cuda"}, "option -d (--accelerator): only OSU 7.4 built with"},
		{[]string{"latency", "-r", "cpu"}, "option -r (--cuda-target)"},
	} {
		_, err := Parse(c.args)
		if err == nil || !cli.IsUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want a usage error with %q", c.args, err, c.want)
		}
	}
}

// TestTail: OSU's percentile index, computed by hand for 10 samples.
func TestTail(t *testing.T) {
	s := []float64{9, 1, 8, 2, 7, 3, 6, 4, 5, 10}
	got := Tail(s, []int{0, 10, 50, 90, 99, 100})
	// sorted 1..10; index 10*p/100-1: -1 (read as 0), 0, 4, 8, 8, 9.
	want := []float64{1, 1, 5, 9, 9, 10}
	for i := range want {
		if got[i].Value != want[i] {
			t.Errorf("P%d = %v, want %v", got[i].P, got[i].Value, want[i])
		}
	}
	if !slices.Equal(s, []float64{9, 1, 8, 2, 7, 3, 6, 4, 5, 10}) {
		t.Errorf("Tail sorted its input")
	}
}

// TestParseBigColl: osu_bcast, osu_reduce and osu_allreduce take sizes of
// 2 GiB and more in their datatype.
func TestParseBigColl(t *testing.T) {
	for _, args := range [][]string{{"osu_bcast", "-m", "1:4G"}, {"osu_reduce", "-m", "4G", "-T", "mpi_float", "-k", "rotate"},
		{"osu_allreduce", "-m", "2G:4G", "-T", "mpi_float", "-c"}} {
		if o, err := Parse(args); err != nil || o.MaxSize != 4<<30 {
			t.Errorf("%v: %v, %v; want -m up to 4 GiB", args, o, err)
		}
	}
}

// TestParseBufferLocations: OSU's SRC DST operands after the options, as
// ReFrame's OSU checks pass them, are taken for host memory (they were
// refused as unexpected arguments) and change nothing else.
func TestParseBufferLocations(t *testing.T) {
	plain, err := Parse([]string{"latency", "-m", "8:64", "-i", "20"})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"latency", "-m", "8:64", "-i", "20", "H", "H"},
		{"latency", "-m", "8:64", "-i", "20", "h", "host"},
		{"latency", "-m", "8:64", "-i", "20", "--", "H", "H"},
	} {
		o, err := Parse(args)
		if err != nil {
			t.Errorf("%v: %v", args, err)
			continue
		}
		if o.MinSize != plain.MinSize || o.MaxSize != plain.MaxSize || o.Iterations != plain.Iterations {
			t.Errorf("%v: %+v, want the options of %+v", args, o, plain)
		}
	}
}
