package method_test

import (
	"fmt"

	"mpibench/suites/skampi/method"
)

// One parameter setting in a single process: Local decides, and the
// empty measurement (25 ns of timer overhead) is subtracted.
func ExampleAdaptive_Run() {
	times := []float64{9e-6, // the warm-up call, discarded
		5.1e-6, 4.9e-6, 5.0e-6, 50e-6, 5.0e-6, 5.1e-6, 4.9e-6, 5.0e-6}
	i := 0
	sample := func() (float64, error) { t := times[i]; i++; return t, nil }

	policy := method.Adaptive{Epsilon: 0.03, MinReps: 4, MaxReps: 8, Tick: 1e-9}
	r, err := policy.Run(sample, 0.025e-6, method.Local)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The 50 µs outlier would keep the relative error of the plain mean
	// above 3 %; the stopping rule looks at the trimmed mean, whose middle
	// half (5.0 5.1 of 4.9 5.0 5.1 50) ignores it, so MinReps suffice.
	fmt.Printf("n=%d reached=%v trimmed=%.3f µs mean=%.3f µs\n", r.N, r.Reached, r.Trimmed*1e6, r.Mean*1e6)
	// Output: n=4 reached=true trimmed=5.025 µs mean=16.225 µs
}

// Message lengths from 1 B to 1 MiB for a cost with a protocol switch at
// 10000 bytes: the refinement measures around the switch only.
func ExampleRefine_Run() {
	cost := func(m int) (float64, error) {
		if m < 10000 {
			return 1e-6 + float64(m)*1e-9, nil
		}
		return 5e-6 + float64(m)*2e-9, nil
	}
	c, err := method.Refine{MMin: 1, MMax: 1 << 20, Gamma: 2, Epsilon: 0.03}.Run(cost)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range c.Order[21:] { // after the 21 grid lengths 1, 2, ..., 2^20
		fmt.Print(p.M, " ")
	}
	fmt.Println("reached:", c.Reached)
	// Output: 11585 9742 10624 10173 9955 reached: true
}
