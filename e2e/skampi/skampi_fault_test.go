package skampi

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"mpibench/e2e"
)

// TestSkampiWatchdog: a measurement stuck on rank 1 ends the job with
// exit code 4 and is marked hung; -resume then skips it (noting so) and
// measures the rest.
func TestSkampiWatchdog(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	cfg := skampiWrite(t, skampiKillTiny)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	e2e.HangRun(t, 2, 1, "Bcast", out, "skampi", "-config", cfg, "-o", out)
	e2e.SetFault(t, "")
	r := e2e.Launch(t, 2, "skampi", "-config", cfg, "-o", out, "-resume")
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "1 hung skipped (Bcast)") ||
		!strings.Contains(r.Stdout, "# Bcast: hung in the resumed run, not measured") ||
		!strings.Contains(r.Stdout, "# Comm_size:") || !strings.Contains(r.Stdout, "# Wtime:") {
		t.Errorf("resume should skip the hung Bcast and measure Comm_size:\n%s", r)
	}
	_, order := skampiByName(t, skampiRead(t, out))
	want := []string{"Wtime", "Pingpong_Send_Recv", "Slow", "Comm_size"}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("journal after resume: %v, want %v", order, want)
	}
}

// TestSkampiInterrupt: SIGINT or SIGTERM to every rank inside a
// measurement: the finished measurements' records stay, the ranks exit
// with 128 + the signal.
func TestSkampiInterrupt(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cfg := skampiWrite(t, skampiKillTiny)
			out := filepath.Join(t.TempDir(), "r.jsonl")
			e2e.SetFault(t, "hang:1:Slow")
			r := e2e.SignalAt(t, 2, out, "start Slow", sig, -1, "skampi", "-config", cfg, "-o", out, "-timeout", "0")
			if want := 128 + int(sig); r.Code != want && e2e.LauncherKind() == "openmpi" {
				t.Errorf("exit code %d, want %d\n%s", r.Code, want, r)
			}
			_, order := skampiByName(t, skampiRead(t, out))
			data, _ := os.ReadFile(out + ".state")
			if strings.Join(order, " ") != "Wtime Pingpong_Send_Recv" {
				t.Errorf("records of %v kept, want Wtime Pingpong_Send_Recv; journal:\n%s", order, data)
			}
		})
	}
}
