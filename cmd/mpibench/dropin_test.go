package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"mpibench/suites/osu"
)

// TestDropIn: every Intel and OSU program name, as the name the binary was
// run by (a link, with or without a directory) or as the first argument,
// becomes mpibench's command for that program; other names are left as
// they are.
func TestDropIn(t *testing.T) {
	for _, c := range []struct {
		argv0 string
		args  []string
		want  []string
	}{
		{"IMB-MPI1", []string{"PingPong", "-msglog", "0:2"}, []string{"mpi1", "-imb", "2021", "PingPong", "-msglog", "0:2"}},
		{"/opt/peers/bin/IMB-MPI1", nil, []string{"mpi1", "-imb", "2021"}},
		{"./IMB-EXT", []string{"Unidir_Put"}, []string{"ext", "-imb", "2021", "Unidir_Put"}},
		{"IMB-IO", nil, []string{"io"}},
		{"IMB-NBC", []string{"Ibcast"}, []string{"nbc", "Ibcast"}},
		{"IMB-RMA", nil, []string{"rma"}},
		{"IMB-MPI4", nil, []string{"mpi4"}},
		{"IMB-P2P", nil, []string{"p2p"}},
		{"/p/IMB-MT", []string{"-count", "1"}, []string{"mt", "-count", "1"}},
		{"mpibench", []string{"IMB-MPI1", "-iter", "10"}, []string{"mpi1", "-imb", "2021", "-iter", "10"}},
		{"/usr/bin/mpibench", []string{"/x/IMB-NBC"}, []string{"nbc"}},
		{"bin/peers/osu_latency", []string{"-m", "8:8"}, []string{"osu", "osu_latency", "-m", "8:8"}},
		{"mpibench", []string{"osu_allreduce", "-f"}, []string{"osu", "osu_allreduce", "-f"}},
		// Not peers' names: as before.
		{"mpibench", []string{"mpi1", "PingPong"}, []string{"mpi1", "PingPong"}},
		{"mpibench-mpich", []string{"osu", "latency"}, []string{"osu", "latency"}},
		{"mpibench", []string{"latency"}, []string{"latency"}},
		{"mpibench", []string{"OSU_LATENCY"}, []string{"OSU_LATENCY"}},
		{"imb-mpi1", []string{"mpi1"}, []string{"mpi1"}},
		{"mpibench", nil, nil},
	} {
		got, _, err := dropIn(c.argv0, c.args)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("dropIn(%q, %q) = %q, %v; want %q", c.argv0, c.args, got, err, c.want)
		}
	}
	for _, b := range osu.Benchmarks() {
		got, peer, err := dropIn("/some/dir/"+b.Name, []string{"-h"})
		if err != nil || !peer || !slices.Equal(got, []string{"osu", b.Name, "-h"}) {
			t.Errorf("dropIn(%s) = %q, %v, %v", b.Name, got, peer, err)
		}
	}
	if got := len(peerNames()); got != len(intelNames)+len(osu.Benchmarks()) {
		t.Errorf("peerNames: %d names", got)
	}
}

// TestDropInHelp: a drop-in name's -h is its command's help, which runs
// without MPI.
func TestDropInHelp(t *testing.T) {
	for argv0, want := range map[string]string{"IMB-MPI1": "mpibench mpi1", "osu_bw": "mpibench osu BENCH", "IMB-MT": "mpibench mt"} {
		var out, errb bytes.Buffer
		if code := runAs(argv0, []string{"-h"}, &out, &errb); code != 0 || !strings.Contains(out.String(), want) {
			t.Errorf("%s -h: exit %d, stdout %.200q, stderr %q", argv0, code, out.String(), errb.String())
		}
	}
}
