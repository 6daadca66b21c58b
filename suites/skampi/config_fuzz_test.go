package skampi

import (
	"errors"
	"strings"
	"testing"
)

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		DefaultConfig,
		"measure A pingpong Send_Recv bytes 1..1M\n",
		"node n1\nnetwork \"ib\"\nuser me\nepsilon 0.05\nminreps 4\nmaxreps 10\ngamma 1.5\nbudget 40\nlen 4K\n" +
			"measure B collective Bcast bytes 1..64K step=doubling\n",
		"measure C master-worker Send procs 2..P work=4\nmeasure D simple Wtime none\n",
		"measure E collective Alltoall procs 1..P len=256 procs=P\n",
		"", "# nothing\n", "measure\n", "measure A pingpong Send_Recv bytes\n", "measure A pingpong Send_Recv bytes 0..1\n",
		"measure A pingpong Send_Recv bytes 8..4\n", "measure A pingpong Send_Recv bytes 1..0\n",
		"measure A pingpong Send_Recv bytes 1..3G\n", "measure A pingpong Send_Recv bytes 1..2047M budget=1\n",
		"gamma 16\nbudget 1\nmeasure A pingpong Send_Recv bytes 1..1G\n",
		"measure A pingpong Send_Recv bytes 1..1K\nmeasure a simple Wtime none\n",
		"MEASURE A PINGPONG SEND_RECV BYTES 1..1k MINREPS=9 MAXREPS=3\n", "frobnicate 3\n", "epsilon 1\n",
		"gamma 1.0000000001\nbudget 5\nmeasure A pingpong Send_Recv bytes 1..1G\n", // hung
		"measure A collective Bcast procs 1..0\n",
		"maxreps 90000000000\nmeasure A pingpong Send_Recv bytes 1..4\n",
		"measure A master-worker Send workpieces 1..1G work=9999999\n",
		"gamma NaN\n", "len -1K\n", "measure A pingpong Send_Recv bytes 1..2 frob\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConfig(strings.NewReader(s), "in.ski")
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.File != "in.ski" || !strings.HasPrefix(err.Error(), "in.ski:") {
				t.Fatalf("error %q is not a ConfigError naming the file", err)
			}
			return
		}
		if len(c.Measurements) == 0 {
			t.Fatal("no measurements and no error")
		}
		for _, m := range c.Measurements {
			checkMeasurement(t, m)
		}
		for n := 1; n <= 4; n++ {
			c.Check(n)
		}
	})
}

// checkMeasurement fails t when m breaks a bound that ParseConfig checks.
func checkMeasurement(t *testing.T, m Measurement) {
	t.Helper()
	switch {
	case m.File != "in.ski" || m.Line < 1:
		t.Fatalf("%s: at %s:%d", m.Name, m.File, m.Line)
	case m.Param != OverNone && (m.Lo < 1 || m.Hi < 0 || (m.Hi != 0 && m.Hi < m.Lo)):
		t.Fatalf("%s: range %d..%d", m.Name, m.Lo, m.Hi)
	case m.Len < 0 || m.Procs < 0 || m.Work < 1 || m.Work > MaxWork || m.Budget < 0 || m.Budget > MaxBudget,
		m.Param == OverWorkpieces && m.Hi > MaxWork:
		t.Fatalf("%s: len %d procs %d work %d budget %d", m.Name, m.Len, m.Procs, m.Work, m.Budget)
	case m.MinReps < 1 || m.MaxReps < m.MinReps || m.MaxReps > MaxReps:
		t.Fatalf("%s: repetitions %d..%d", m.Name, m.MinReps, m.MaxReps)
	case !(m.Epsilon > 0 && m.Epsilon < 1) || !(m.Gamma > 1 && m.Gamma <= 16):
		t.Fatalf("%s: epsilon %g gamma %g", m.Name, m.Epsilon, m.Gamma)
	}
}
