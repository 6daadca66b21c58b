package imb

import (
	"slices"
	"testing"
)

// Expected values worked out by hand from settings_io.h (section 5.2.1)
// and sample 3 (section 6.3): MSGSPERSAMPLE 50, MSGS_NONAGGR 10,
// OVERALL_VOL 16 MiB = 16777216 bytes.
func TestIORepetitions(t *testing.T) {
	s := &IOSuite.Settings
	cases := []struct {
		x           int
		aggr, nonag int
	}{
		{0, 50, 10},
		{1, 50, 10},
		{262144, 50, 10},  // 16 MiB / 256 KiB = 64
		{524288, 32, 10},  // sample 3: 32
		{1048576, 16, 10}, // 16
		{2097152, 8, 8},   // both tables of sample 3: 8
		{4194304, 4, 4},
		{8388608, 2, 2},
		{16777216, 1, 1},
		{33554432, 1, 1}, // 0 → at least 1
	}
	for _, c := range cases {
		if got := s.Repetitions(c.x, Aggregate); got != c.aggr {
			t.Errorf("IO aggregate Repetitions(%d) = %d, want %d", c.x, got, c.aggr)
		}
		if got := s.Repetitions(c.x, NonBlocking); got != c.aggr {
			t.Errorf("IO non-blocking Repetitions(%d) = %d, want %d", c.x, got, c.aggr)
		}
		if got := s.Repetitions(c.x, NonAggregate); got != c.nonag {
			t.Errorf("IO non-aggregate Repetitions(%d) = %d, want %d", c.x, got, c.nonag)
		}
	}
	lens := s.DefaultLengths(1)
	if len(lens) != 26 || lens[0] != 0 || lens[1] != 1 || lens[25] != 16777216 {
		t.Errorf("IO default lengths %v, want 0, 1, 2, ..., 16777216 (26 lengths)", lens)
	}
}

// IMB-EXT: settings.h with MSGS_NONAGGR 100 and OVERALL_VOL 40 MiB.
func TestEXTRepetitions(t *testing.T) {
	s := &EXTSuite.Settings
	cases := []struct{ x, aggr, nonag int }{
		{0, 1000, 100}, {4, 1000, 100}, {65536, 640, 100}, {419430, 100, 100},
		{524288, 80, 80}, {4194304, 10, 10},
	}
	for _, c := range cases {
		if got := s.Repetitions(c.x, Aggregate); got != c.aggr {
			t.Errorf("EXT aggregate Repetitions(%d) = %d, want %d", c.x, got, c.aggr)
		}
		if got := s.Repetitions(c.x, NonAggregate); got != c.nonag {
			t.Errorf("EXT non-aggregate Repetitions(%d) = %d, want %d", c.x, got, c.nonag)
		}
	}
}

// IO runs Q = 1, 2, 4, ..., P by default, single transfers on Q = 1 only;
// EXT as MPI-1, single transfers on Q = 2.
func TestSuiteProcessCounts(t *testing.T) {
	cases := []struct {
		s     *Suite
		p     int
		class Class
		want  []int
	}{
		{IOSuite, 1, ParallelTransfer, []int{1}},
		{IOSuite, 4, ParallelTransfer, []int{1, 2, 4}},
		{IOSuite, 6, Collective, []int{1, 2, 4, 6}},
		{IOSuite, 4, SingleTransfer, []int{1}},
		{EXTSuite, 4, SingleTransfer, []int{2}},
		{EXTSuite, 1, SingleTransfer, []int{1}},
		{EXTSuite, 4, Collective, []int{2, 4}},
	}
	for _, c := range cases {
		if got := c.s.ProcessCounts(c.p, c.s.NPMin, c.class); !slices.Equal(got, c.want) {
			t.Errorf("%s ProcessCounts(P=%d, %v) = %v, want %v", c.s.Name, c.p, c.class, got, c.want)
		}
	}
}

func TestMinMaxAvgSkipsIdle(t *testing.T) {
	lo, hi, avg := MinMaxAvg([]float64{-1, 3, 1, -1, 2})
	if lo != 1 || hi != 3 || avg != 2 {
		t.Errorf("MinMaxAvg = %v %v %v, want 1 3 2 (idle -1 entries skipped)", lo, hi, avg)
	}
	if lo, hi, avg := MinMaxAvg([]float64{-1, -1}); lo != 0 || hi != 0 || avg != 0 {
		t.Errorf("MinMaxAvg of idle ranks only = %v %v %v, want zeros", lo, hi, avg)
	}
}

func TestSuiteLookup(t *testing.T) {
	if SuiteByName("mpi1") != MPI1Suite || SuiteByName("ext") != EXTSuite || SuiteByName("io") != IOSuite {
		t.Error("SuiteByName does not find the three suites")
	}
	if SuiteByName("MPI1") != nil || SuiteByName("beff") != nil {
		t.Error("SuiteByName finds a suite that is not an IMB command")
	}
	if _, ok := IOSuite.Lookup("PingPong"); ok {
		t.Error("IO suite finds an MPI-1 benchmark")
	}
}
