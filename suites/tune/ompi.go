package tune

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	"mpibench/internal/textout"
)

// OpenMPI is Open MPI's coll/tuned: algorithms forced by MCA variables,
// decisions read from a dynamic rules file.
type OpenMPI struct {
	// Info is the ompi_info command that describes the library mpibench
	// runs with ("ompi_info" on PATH when empty).
	Info string
	// run runs Info with its arguments; nil: exec.Command (tests replace
	// it with the captured output of Open MPI 4.1).
	run func(name string, args ...string) ([]byte, error)
}

// Name is the library's name.
func (o *OpenMPI) Name() string { return "Open MPI" }

func (o *OpenMPI) info() string {
	if o.Info == "" {
		return "ompi_info"
	}
	return o.Info
}

// infoArgs asks ompi_info for every coll/tuned variable, in the
// parsable form: the enumerators of coll_tuned_<coll>_algorithm are the
// algorithms (0, "ignore", is the library's own decision).
var infoArgs = []string{"--param", "coll", "tuned", "--level", "9", "--parsable"}

// Algorithms reads the algorithms from ompi_info.
func (o *OpenMPI) Algorithms() (map[string][]Alg, error) {
	run := o.run
	if run == nil {
		run = func(name string, args ...string) ([]byte, error) {
			return exec.Command(name, args...).Output()
		}
	}
	out, err := run(o.info(), infoArgs...)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", o.info(), strings.Join(infoArgs, " "), err)
	}
	return parseInfo(out, o.info())
}

// parseInfo reads ompi_info's parsable lines
// mca:coll:tuned:param:coll_tuned_bcast_algorithm:enumerator:value:2:chain.
func parseInfo(out []byte, name string) (map[string][]Alg, error) {
	algs := map[string][]Alg{}
	tuned := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "mca:coll:tuned:") {
			continue
		}
		tuned = true
		c, a, ok := enumerator(line)
		if ok && a.ID != 0 {
			algs[c.Name] = append(algs[c.Name], a)
		}
	}
	if !tuned {
		return nil, fmt.Errorf("%s lists no coll/tuned component: this Open MPI cannot be tuned by a rules file (coll_tuned_dynamic_rules_filename)", name)
	}
	for _, as := range algs {
		sort.Slice(as, func(i, j int) bool { return as[i].ID < as[j].ID })
	}
	return algs, nil
}

// enumerator parses one enumerator line of a collective tune knows.
func enumerator(line string) (Coll, Alg, bool) {
	f := strings.Split(line, ":")
	if len(f) != 9 || f[3] != "param" || f[5] != "enumerator" || f[6] != "value" {
		return Coll{}, Alg{}, false
	}
	name := strings.TrimSuffix(strings.TrimPrefix(f[4], "coll_tuned_"), "_algorithm")
	if name == f[4] || !strings.HasSuffix(f[4], "_algorithm") {
		return Coll{}, Alg{}, false
	}
	id, err := strconv.Atoi(f[7])
	if err != nil {
		return Coll{}, Alg{}, false
	}
	for _, c := range Colls {
		if c.Lib() == name {
			return c, Alg{ID: id, Name: f[8]}, true
		}
	}
	return Coll{}, Alg{}, false
}

// Force makes coll/tuned use a for c: the forced algorithms count only
// with coll_tuned_use_dynamic_rules.
func (o *OpenMPI) Force(c Coll, a Alg) []string {
	if a.IsDefault() {
		return nil
	}
	return []string{"OMPI_MCA_coll_tuned_use_dynamic_rules=1",
		fmt.Sprintf("OMPI_MCA_coll_tuned_%s_algorithm=%d", c.Lib(), a.ID)}
}

// RulesEnv makes coll/tuned read the rules file at path.
func (o *OpenMPI) RulesEnv(path string) []string {
	return []string{"OMPI_MCA_coll_tuned_use_dynamic_rules=1",
		"OMPI_MCA_coll_tuned_dynamic_rules_filename=" + path}
}

// Metric is the message size coll/tuned's dynamic decision
// (coll_tuned_decision_dynamic.c, Open MPI 4.1) compares with a rule's:
// the type size times the count for Allreduce, Bcast, Reduce and
// Reduce_scatter (the sum of the counts); times the communicator size for
// Allgather, Alltoall, Gather, Scatter and Reduce_scatter_block; the
// average per process for Allgatherv; 0 for Alltoallv and Barrier, which
// it decides by the communicator size alone. IMB 2021's length X is the
// block per process for Allgather(v), Alltoall, Gather, Scatter and
// Reduce_scatter_block (IMB's SENDBUF_SIZE_NP_I: suites/imb's sizes2021),
// and the whole vector for Allreduce, Bcast, Reduce and Reduce_scatter.
// TestOpenMPIReadsRules checks Alltoall's against the library.
func (o *OpenMPI) Metric(c Coll, np, bytes int) int {
	switch c.Name {
	case "Allgather", "Alltoall", "Gather", "Scatter":
		return np * bytes
	case "Reduce_scatter_block":
		return np * (bytes / 4 * 4)
	case "Alltoallv", "Barrier":
		return 0
	}
	return bytes
}

// WriteRules writes t as a coll/tuned dynamic rules file (the format of
// Open MPI 4.1's coll_tuned_dynamic_file.c): the number of collectives;
// per collective its ID and the number of communicator sizes; per size
// the size and the number of message rules; per rule the message size,
// the algorithm (0: the library's own decision), the fan-in/out and the
// segment size (0 and 0: the algorithm's defaults). Every communicator
// size starts at message size 0, which the reader requires. A
// communicator size not measured keeps the library's decision: a size
// with one rule "0 0 0 0" follows each measured one unless the next
// measured size is adjacent, and one at size 1 precedes them (coll/tuned
// uses the largest rule size at or below the communicator's, else the
// first).
func (o *OpenMPI) WriteRules(w io.Writer, t Table) error {
	tw := textout.New(w)
	colls := tableColls(t)
	tw.Printf("%d # collectives\n", len(colls))
	for _, c := range colls {
		writeColl(tw, o, c, t[c.Name])
	}
	return tw.Err()
}

// writeColl writes one collective's rules.
func writeColl(tw *textout.Writer, o *OpenMPI, c Coll, rules []Rule) {
	sizes := commSizes(rules)
	tw.Printf("%d # %s\n", c.OMPIID, c.Name)
	tw.Printf("%d # communicator sizes\n", len(sizes))
	for _, np := range sizes {
		rs := o.increasing(c, np, merged(rulesAt(rules, np)))
		if len(rs) == 0 {
			rs = []Rule{{NP: np, Alg: Default}}
		}
		tw.Printf("%d # communicator size\n%d # message sizes\n", np, len(rs))
		for _, r := range rs {
			tw.Printf("%d %d 0 0 # %s from %d bytes\n", o.Metric(c, np, r.Bytes), r.Alg.ID, r.Alg.Name, r.Bytes)
		}
	}
}

// commSizes are the communicator sizes of a collective's rules with the
// sizes between them that keep the default.
func commSizes(rules []Rule) []int {
	var nps []int
	for _, r := range rules {
		if len(nps) == 0 || nps[len(nps)-1] != r.NP {
			nps = append(nps, r.NP)
		}
	}
	var sizes []int
	if len(nps) > 0 && nps[0] > 1 {
		sizes = append(sizes, 1)
	}
	for i, np := range nps {
		sizes = append(sizes, np)
		if i+1 == len(nps) || nps[i+1] > np+1 {
			sizes = append(sizes, np+1)
		}
	}
	return sizes
}

func rulesAt(rules []Rule, np int) []Rule {
	var rs []Rule
	for _, r := range rules {
		if r.NP == np {
			rs = append(rs, r)
		}
	}
	return rs
}

// tableColls are t's collectives in the order of Colls.
func tableColls(t Table) []Coll {
	var cs []Coll
	for _, c := range Colls {
		if len(t[c.Name]) > 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// merged drops every rule whose algorithm is that of the rule before it
// (rules sorted by Bytes): adjacent lengths with the same winner are one
// rule.
func merged(rs []Rule) []Rule {
	var out []Rule
	for _, r := range rs {
		if len(out) > 0 && out[len(out)-1].Alg.ID == r.Alg.ID {
			continue
		}
		out = append(out, r)
	}
	return out
}

// increasing keeps the rules whose message sizes, as the library computes
// them, increase: of two lengths with one size (rounding, or a collective
// decided without sizes) the first rule stands.
func (o *OpenMPI) increasing(c Coll, np int, rs []Rule) []Rule {
	var out []Rule
	for _, r := range rs {
		if len(out) > 0 && o.Metric(c, np, r.Bytes) <= o.Metric(c, np, out[len(out)-1].Bytes) {
			continue
		}
		out = append(out, r)
	}
	return out
}
