package report

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// suiteFigures are the figures the report must draw from each suite's
// records in testdata/suites (SUITE.jsonl, a few records of a short real
// run with 2 processes under Open MPI): a figure id's start and the
// panels of that figure, in order. links draws heat maps, not figures.
var suiteFigures = map[string][]struct {
	id     string
	panels []string
}{
	result.SuiteMPI1: {{"mpi1-Allreduce-", []string{"main"}}, {"mpi1-PingPong-", []string{"main", "bandwidth"}}},
	result.SuiteEXT:  {{"ext-Unidir_Put-", []string{"main", "bandwidth"}}},
	result.SuiteIO:   {{"io-S_Write_Indv-", []string{"main", "bandwidth"}}},
	result.SuiteBeff: {{"beff-", []string{"main"}}}, result.SuiteBeffIO: {{"beffio-", []string{"main"}}},
	result.SuiteSkampi: {{"skampi-Pingpong_Send_Recv-", []string{"main"}}},
	result.SuitePGMPI:  {{"pgmpi-MPI_Allreduce-", []string{"main"}}},
	result.SuiteP2P:    {{"p2p-PingPong-", []string{"main", "bandwidth", "rate"}}},
	result.SuiteNBC:    {{"nbc-Ibcast-non-blocking-", []string{"main", "overlap"}}, {"nbc-Ibcast_pure-", []string{"main"}}},
	result.SuiteMPI4:   {{"mpi4-Bcast_persist-", []string{"main", "overlap"}}},
	result.SuiteRMA:    {{"rma-Unidir_put-", []string{"main", "bandwidth"}}},
	result.SuiteOSU: {{"osu-osu_latency-", []string{"main"}}, {"osu-osu_bw-", []string{"main"}},
		{"osu-osu_mbw_mr-", []string{"main", "rate"}}, {"osu-osu_allreduce-", []string{"main"}},
		{"osu-osu_iallreduce-", []string{"main", "overlap"}}, {"osu-osu_barrier-", []string{"main"}}},
	result.SuiteMT:    {{"mt-PingPongMT-", []string{"main", "bandwidth"}}, {"mt-AllReduceMT-", []string{"main"}}},
	result.SuiteLinks: nil,
}

// suiteNames are the suites of result/suite.go, read from its source so
// that a suite added there without records here fails the test.
func suiteNames(t *testing.T) []string {
	src, err := os.ReadFile("../result/suite.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^\s*Suite\w+\s*=\s*"(\w+)"`).FindAllStringSubmatch(string(src), -1) {
		names = append(names, m[1])
	}
	if len(names) < 13 {
		t.Fatalf("%d suites read from result/suite.go: %v", len(names), names)
	}
	return names
}

// suiteInput reads testdata/suites/SUITE.jsonl.
func suiteInput(t *testing.T, suite string) Input {
	path := filepath.Join("testdata", "suites", suite+".jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("suite %s: %v (every suite needs records here)", suite, err)
	}
	recs, _, err := result.Read(f, path)
	_ = f.Close() // read only
	if err != nil || len(recs) == 0 {
		t.Fatalf("%s: %d records, %v", path, len(recs), err)
	}
	return Input{Name: path, Records: recs}
}

// figurePanels maps each figure of a page to the classes of its panels.
func figurePanels(page string) map[string][]string {
	out := map[string][]string{}
	fig := regexp.MustCompile(`<figure class="plot" id="([^"]+)">`)
	panel := regexp.MustCompile(`<div class="panel ([a-z]+)">`)
	locs := fig.FindAllStringSubmatchIndex(page, -1)
	for i, l := range locs {
		end := len(page)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		id := page[l[2]:l[3]]
		out[id] = []string{}
		for _, p := range panel.FindAllStringSubmatch(page[l[1]:end], -1) {
			out[id] = append(out[id], p[1])
		}
	}
	return out
}

// Every suite's records are drawn, each figure with the panels its
// records' figures call for (time or bandwidth; the throughput; message
// rate; overlap), in a section of its own. mpi1.jsonl's two PingPong
// records of 2 GiB and 4 GiB are its 8-byte record with the length,
// times and count_mode edited (a real run of them needs 8 GiB); its
// Allreduce ran with -sync window, a repetition of it missing its window.
func TestReportEverySuite(t *testing.T) {
	var inputs []Input
	for _, s := range suiteNames(t) {
		inputs = append(inputs, suiteInput(t, s))
		if _, ok := suiteFigures[s]; !ok {
			t.Errorf("suite %s: no figures expected of it in suiteFigures", s)
		}
	}
	var b bytes.Buffer
	if err := HTML(&b, inputs); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	figs := figurePanels(page)
	for suite, want := range suiteFigures {
		if !strings.Contains(page, `<h2 id="`+suite+`">`) {
			t.Errorf("no section of suite %s", suite)
		}
		for _, w := range want {
			found := false
			for id, panels := range figs {
				if strings.HasPrefix(id, w.id) {
					found = true
					if !slices.Equal(panels, w.panels) {
						t.Errorf("figure %s: panels %v, want %v", id, panels, w.panels)
					}
				}
			}
			if !found {
				t.Errorf("suite %s: no figure %s*", suite, w.id)
			}
		}
	}
	for _, want := range []string{"at 4 GiB: latency", "repetitions missed their window and are excluded",
		"Bandwidth (MB/s), MB = 10^6 bytes", "Overlap(%)", "smallest, at 1 B: bandwidth 7.836 MB/s;",
		"messages of 2 GiB and more passed as derived-type", `<rect x=`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// OSU's records alone: the secondary figures (-z's percentiles, -f's
// minimum and maximum, the non-blocking tests' compute and pure
// communication times) are drawn dashed beside the main one.
func TestReportOSUSecondary(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, []Input{suiteInput(t, result.SuiteOSU)}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"osu.jsonl (vm, Open MPI v4.1.4) P99", "osu.jsonl (vm, Open MPI v4.1.4) max latency",
		"osu.jsonl (vm, Open MPI v4.1.4) pure comm.", "border-top-style: dashed"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
