package pgmpi

import (
	"bytes"
	"math"
	"reflect"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestWindowCOV(t *testing.T) {
	v := []float64{5, 1, 2, 3}
	if got := WindowCOV(v, 3); !near(got, math.Sqrt(2.0/3)/2) {
		t.Errorf("WindowCOV(w=3) = %v", got)
	}
	if got := WindowCOV(v, 2); !near(got, 0.5/2.5) {
		t.Errorf("WindowCOV(w=2) = %v", got)
	}
	if got := WindowCOV(v, 5); !math.IsInf(got, 1) {
		t.Errorf("WindowCOV(w=5) over 4 values = %v, want +Inf", got)
	}
}

func crit(methods []string, thr map[string]float64, w int) Criteria {
	return Criteria{Methods: methods, Thresholds: thr,
		Windows: map[string]int{CovMean: w, CovMedian: w}, Min: 2, Max: 10, Step: 1}
}

// TestRSE: samples 1, 3 have RSE (1/√2)/2 ≈ 0.354; adding 2 gives
// √(2/3)/√3/2 ≈ 0.236, below 0.3.
func TestPredictorRSE(t *testing.T) {
	p := &Predictor{Crit: crit([]string{RSE}, map[string]float64{RSE: 0.3}, 2)}
	if p.Add([]float64{1, 3}) {
		t.Fatalf("stopped at RSE %v", p.Value(RSE))
	}
	if !near(p.Value(RSE), math.Sqrt(0.5)/2) {
		t.Errorf("RSE = %v", p.Value(RSE))
	}
	if !p.Add([]float64{2}) || !p.Passed() || p.Reps() != 3 {
		t.Errorf("not passed at 3: RSE %v", p.Value(RSE))
	}
	if !near(p.Value(RSE), math.Sqrt(2.0/3)/math.Sqrt(3)/2) {
		t.Errorf("RSE = %v", p.Value(RSE))
	}
}

// TestPredictorCovMean: means after each check are 2, 2, 2.25 (samples
// 1 3 | 2 | 3); the window of the last 2 means has COV 0 at the second
// check, but RSE must pass too.
func TestPredictorCombined(t *testing.T) {
	c := crit([]string{RSE, CovMean}, map[string]float64{RSE: 0.2, CovMean: 0.01}, 2)
	p := &Predictor{Crit: c}
	p.Add([]float64{1, 3})
	if !math.IsInf(p.Value(CovMean), 1) {
		t.Errorf("COV_mean over one mean = %v", p.Value(CovMean))
	}
	if p.Add([]float64{2}) {
		t.Errorf("stopped at 3 although RSE %v >= 0.2", p.Value(RSE))
	}
	if p.Value(CovMean) != 0 {
		t.Errorf("COV_mean of means 2, 2 = %v", p.Value(CovMean))
	}
	p.Add([]float64{3}) // means 2, 2.25: COV 0.125/2.125
	if !near(p.Value(CovMean), 0.125/2.125) || p.Passed() {
		t.Errorf("COV_mean = %v, passed %v", p.Value(CovMean), p.Passed())
	}
}

func TestPredictorCovMedianAndMax(t *testing.T) {
	c := crit([]string{CovMedian}, map[string]float64{CovMedian: 1e-9}, 3)
	p := &Predictor{Crit: c}
	p.Add([]float64{1, 2})
	p.Add([]float64{100}) // medians 1.5, 2
	if !math.IsInf(p.Value(CovMedian), 1) {
		t.Errorf("COV_median over 2 medians, w=3: %v", p.Value(CovMedian))
	}
	p.Add([]float64{0}) // medians 1.5, 2, 1.5
	want := math.Sqrt(((1.5-5.0/3)*(1.5-5.0/3)*2+(2-5.0/3)*(2-5.0/3))/3) / (5.0 / 3)
	if !near(p.Value(CovMedian), want) {
		t.Errorf("COV_median = %v, want %v", p.Value(CovMedian), want)
	}
	stop := false
	for p.Reps() < c.Max && !stop {
		stop = p.Add([]float64{float64(p.Reps())})
	}
	if !stop || p.Reps() != c.Max || p.Passed() {
		t.Errorf("stop %v at %d reps, passed %v: want a stop at max %d", stop, p.Reps(), p.Passed(), c.Max)
	}
}

func TestNext(t *testing.T) {
	c := Criteria{Min: 20, Max: 35, Step: 10}
	var got []int
	for taken := 0; ; {
		n := c.Next(taken)
		got = append(got, n)
		if n == 0 {
			break
		}
		taken += n
	}
	if !reflect.DeepEqual(got, []int{20, 10, 5, 0}) {
		t.Errorf("batches %v", got)
	}
}

func TestCriteriaCheck(t *testing.T) {
	if err := DefaultCriteria().Check(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	bad := []func(*Criteria){
		func(c *Criteria) { c.Methods = []string{"mean"} },
		func(c *Criteria) { c.Methods = nil },
		func(c *Criteria) { c.Thresholds[RSE] = 0 },
		func(c *Criteria) { c.Thresholds[RSE] = math.Inf(1) },
		func(c *Criteria) { c.Thresholds[RSE] = math.NaN() },
		func(c *Criteria) { c.Methods = []string{CovMean}; c.Windows[CovMean] = 1 },
		func(c *Criteria) { c.Min = 1 },
		func(c *Criteria) { c.Max = 10 },
		func(c *Criteria) { c.Step = 0 },
	}
	for i, f := range bad {
		c := DefaultCriteria()
		f(&c)
		if c.Check() == nil {
			t.Errorf("case %d: %+v accepted", i, c)
		}
	}
}

func TestNrepFileRoundTrip(t *testing.T) {
	e := NrepEntry{Call: "MPI_Bcast", Bytes: 16, Predictions: []int{30, 80, 50}, Reached: []bool{true, false, true}}
	e.Keep()
	if e.Reps != 80 {
		t.Errorf("kept %d, want the largest prediction 80", e.Reps)
	}
	f := &NrepFile{Procs: 4, Criteria: DefaultCriteria(), Entries: []NrepEntry{e}}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	g, err := ReadNrep(&b)
	if err != nil || !reflect.DeepEqual(f, g) {
		t.Errorf("round trip: %+v, %v", g, err)
	}
	if _, err := ReadNrep(bytes.NewBufferString(`{"entries":[{"call":"MPI_Foo","reps":1}]}`)); err == nil {
		t.Error("unknown call accepted")
	}
}

func TestParseKeyValues(t *testing.T) {
	kv, err := ParseKeyValues("rse=0.05,cov_median=0.2")
	if err != nil || kv[RSE] != 0.05 || kv[CovMedian] != 0.2 || len(kv) != 2 {
		t.Errorf("%v, %v", kv, err)
	}
	for _, s := range []string{"rse", "mean=1", "rse=x"} {
		if _, err := ParseKeyValues(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}
