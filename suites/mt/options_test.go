package mt

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestParseArgs: IMB-MT's flags take their value in the next word, names
// come in any case and place, -include's first, -exclude's out.
func TestParseArgs(t *testing.T) {
	c, err := ParseArgs(strings.Fields("allreducemt -count 1,16 -repeat 7 -warmup 0 -window_size 4 -stride 1 " +
		"-barrier special -malloc_align 128 -malloc_algo parallel -check on -noheader PingPongMT -json r.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Benchmarks, []string{"AllReduceMT", "PingPongMT"}) || !slices.Equal(c.Counts, []int{1, 16}) ||
		c.Repeat != 7 || c.Warmup != 0 || c.Window != 4 || c.Stride != 1 || c.Barrier != "special" ||
		c.MallocAlign != 128 || c.MallocAlgo != "parallel" || !c.Check || !c.NoHeader || c.JSON != "r.jsonl" {
		t.Errorf("%+v", c)
	}
	if c.Options["count"] != "1,16" || c.Options["barrier"] != "special" || c.Options["json"] != "" {
		t.Errorf("options %v", c.Options)
	}
	d, err := ParseArgs(nil)
	if err != nil || len(d.Benchmarks) != 10 || d.Benchmarks[0] != "PingPongMT" || d.Benchmarks[9] != "AllReduceMT" ||
		!slices.Equal(d.Counts, []int{1, 2, 4, 8}) || d.Repeat != 1000 || d.Warmup != 100 || d.Window != 64 ||
		d.Barrier != "on" || d.MallocAlign != 64 || d.MallocAlgo != "serial" || d.Check || d.Datatype != "int" {
		t.Errorf("defaults %+v, %v", d, err)
	}
	e, err := ParseArgs(strings.Fields("-include BarrierMT -exclude PingPingMT,bcastmt"))
	want := []string{"BarrierMT", "PingPongMT", "SendRecvMT", "ExchangeMT", "UniBandMT", "BiBandMT", "ReduceMT", "AllReduceMT"}
	if err != nil || !slices.Equal(e.Benchmarks, want) {
		t.Errorf("-include/-exclude: %v, %v; want %v", e.Benchmarks, err, want)
	}
	if c, err := ParseArgs(strings.Fields("-check 1 -datatype int -count 3 -count 5")); err != nil || !c.Check ||
		!slices.Equal(c.Counts, []int{3, 5}) {
		t.Errorf("%+v, %v", c, err)
	}
}

// TestBadInput: IMB-MT's messages, with which every rank exits 2, as rank
// 0 reads the command line (mpijob.Command.Check).
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"PingPang"}, "Invalid benchmark name pingpang"},
		{[]string{"-foo"}, "Invalid option -foo"},
		{[]string{"-barrier", "maybe"}, "Wrong barrier option value"},
		{[]string{"-malloc_algo", "x"}, "Wrong malloc_algo option value"},
		{[]string{"-datatype", "float"}, "Unknown data type in datatype option"},
		{[]string{"-datatype", "char", "-check", "on"}, "Only int data type is supported with check option"},
		{[]string{"-check", "maybe"}, "-check"},
		{[]string{"-repeat"}, "-repeat"},
		{[]string{"-count", "1,x"}, "-count"},
		{[]string{"-malloc_align", "0"}, "-malloc_align"},
		{[]string{"-window_size", "0"}, "-window_size"},
		{[]string{"-exclude", "PingPongMT,PingPingMT,SendRecvMT,ExchangeMT,UniBandMT,BiBandMT,BarrierMT,BcastMT,ReduceMT,AllReduceMT"}, "no benchmark left"},
	} {
		if err := Command.Check(c.args, 2); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("mt %v: %v, want %q", c.args, err, c.want)
		}
	}
}

// TestThreads: OMP_NUM_THREADS's first number, else the processors; one
// thread below -thread_level multiple.
func TestThreads(t *testing.T) {
	if n := ompThreads("3"); n != 3 {
		t.Errorf("OMP_NUM_THREADS=3: %d", n)
	}
	if n := ompThreads("4,2"); n != 4 {
		t.Errorf("OMP_NUM_THREADS=4,2: %d", n)
	}
	if n := ompThreads("x"); n < 1 {
		t.Errorf("OMP_NUM_THREADS=x: %d", n)
	}
	if n := Threads(&Config{OMPThreads: 5}, false); n != 1 {
		t.Errorf("single: %d threads", n)
	}
	if n := Threads(&Config{OMPThreads: 5}, true); n != 5 {
		t.Errorf("multiple: %d threads", n)
	}
}

// TestField: IMB-MT's 13-character fields, cut where printf wrote more.
func TestField(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{0.5, "         0.50"}, {int(8), "            8"}, {"#bytes", "       #bytes"},
		{1234567890.125, " 1234567890.1"}, {math.Inf(1), "          inf"},
	} {
		if got := field(c.v); got != c.want {
			t.Errorf("field(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
