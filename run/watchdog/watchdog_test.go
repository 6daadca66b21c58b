package watchdog

import (
	"testing"
	"time"
)

// The watchdog fires only for a phase still watched: Disarm and a later
// Arm void it, and the expiry runs hung, the cleanup and the abort with
// ExitHung, in that order.
func TestWatchdog(t *testing.T) {
	aborted := make(chan int, 1)
	var order []string
	w := New(Options{Rank: 0, Cleanup: func() { order = append(order, "cleanup") },
		Abort: func(code int) { aborted <- code; select {} }})
	w.Arm(50*time.Millisecond, func() { t.Error("a disarmed phase expired") })
	w.Disarm()
	w.Arm(50*time.Millisecond, func() { t.Error("a replaced phase expired") })
	w.Arm(0, nil) // watches nothing, but ends the phase before
	time.Sleep(100 * time.Millisecond)
	select {
	case <-aborted:
		t.Fatal("a finished phase was ended")
	default:
	}
	w.Arm(50*time.Millisecond, func() { order = append(order, "hung") })
	select {
	case code := <-aborted:
		if code != ExitHung || len(order) != 2 || order[0] != "hung" || order[1] != "cleanup" {
			t.Errorf("abort code %d, before it %v", code, order)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a hung phase was not ended")
	}
}

// BenchmarkArmDisarm is the watchdog's cost per case, outside the timed
// loops: arming and disarming a timer.
func BenchmarkArmDisarm(b *testing.B) {
	w := New(Options{Rank: 1})
	for i := 0; i < b.N; i++ {
		w.Arm(time.Minute, nil)
		w.Disarm()
	}
}
