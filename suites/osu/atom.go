package osu

import (
	"fmt"

	"mpibench/suites/osu/kernel"
)

// optsRMAValid is process_options's one-sided string for the tests that
// set show_validation (osu_acc_latency, osu_fop_latency,
// osu_cas_latency): "cT:" after the others.
const optsRMAValid = optsRMALat + "cT:"

// atomTest is what an atomic one-sided test adds to its rmaTest.
type atomTest struct {
	op int // kernel.AtomAcc, AtomGetAcc, AtomFOP, AtomCAS
	// barriers are OSU's MPI_Barrier calls of each synchronisation (in
	// kernel.Sync* order) before the window's creation and between it and
	// the loop, in a run without -c.
	barriers [6][2]int
	// exclusive are the synchronisations whose MPI_Win_lock is
	// MPI_LOCK_EXCLUSIVE (the others' shared).
	exclusive [6]bool
	// element: one row per datatype, one element at the datatype's size
	// (osu_fop_latency, osu_cas_latency: print_latency(rank, dtype_size)).
	element bool
	// fill are OSU's initial bytes of the operand, result and compare
	// buffers and of the window's memory.
	fill [4]byte
}

func init() {
	const s = kernel.SyncFlush
	atom := func(name, title, calls, opts string, a *atomTest) *Benchmark {
		return &Benchmark{Name: name, Title: title, Kind: RMALatency, Opts: opts, Calls: calls,
			Procs: exactly(2), Measure: measureAtom,
			RMA: &rmaTest{shape: kernel.ShapeLat, sync: s, atom: a}}
	}
	const (
		lock, pscw, fence, flush = kernel.SyncLock, kernel.SyncPSCW, kernel.SyncFence, kernel.SyncFlush
		local, all               = kernel.SyncFlushLocal, kernel.SyncLockAll
	)
	acc := &atomTest{op: kernel.AtomAcc, fill: [4]byte{'a', 0, 0, 'a'}}
	acc.barriers[fence], acc.barriers[pscw] = [2]int{0, 1}, [2]int{0, 1}
	gacc := &atomTest{op: kernel.AtomGetAcc}
	gacc.barriers[fence], gacc.barriers[pscw] = [2]int{0, 1}, [2]int{0, 2}
	gacc.exclusive[lock], gacc.exclusive[flush], gacc.exclusive[local] = true, true, true
	fop := &atomTest{op: kernel.AtomFOP, element: true, fill: [4]byte{'a', 'c', 0, 'b'}}
	fop.barriers = [6][2]int{lock: {0, 1}, pscw: {1, 0}, fence: {0, 1}, flush: {1, 1}, local: {1, 1}, all: {0, 1}}
	fop.exclusive[lock] = true
	cas := &atomTest{op: kernel.AtomCAS, element: true, fill: [4]byte{'a', 'c', 'a', 'b'}}
	cas.barriers = [6][2]int{lock: {0, 0}, pscw: {0, 1}, fence: {1, 0}, flush: {0, 1}, local: {0, 1}, all: {0, 0}}
	cas.exclusive[lock] = true
	getAcc := atom("osu_get_acc_latency", "MPI_Get_accumulate latency Test", "MPI_Get_accumulate (MPI_SUM, MPI_CHAR)",
		optsRMALat, gacc)
	getAcc.RMA.sync, getAcc.RMA.create = lock, true // main sets neither: options' zeroes, WIN_CREATE and LOCK
	register(
		atom("osu_acc_latency", "MPI_Accumulate latency Test", "MPI_Accumulate (MPI_SUM)", optsRMAValid, acc),
		getAcc,
		atom("osu_fop_latency", "MPI_Fetch_and_op latency Test", "MPI_Fetch_and_op (MPI_SUM)", optsRMAValid, fop),
		atom("osu_cas_latency", "MPI_Compare_and_swap latency Test", "MPI_Compare_and_swap", optsRMAValid, cas),
	)
}

// atomOf is b's atomic definition, or nil.
func atomOf(b *Benchmark) *atomTest {
	if b.RMA == nil {
		return nil
	}
	return b.RMA.atom
}

// checkAtomOptions refuses what mpibench does not reproduce of these
// tests: -z for osu_cas_latency, whose fence and pscw loops never fill
// the array its tail figures come from (osu_cas_latency.c:
// run_cas_with_fence, run_cas_with_pscw), and for osu_get_acc_latency,
// whose header names -z's columns and whose passive rows print none
// (print_header_get_acc_lat, print_latency_get_acc_lat).
func checkAtomOptions(b *Benchmark, o *Options) error {
	a := atomOf(b)
	if a == nil || len(o.Percentiles) == 0 || a.op == kernel.AtomAcc || a.op == kernel.AtomFOP {
		return nil
	}
	return fmt.Errorf("-z: %s's tail figures are not reproduced (OSU 7.4 prints them from an array some of its "+
		"loops never fill, or names columns its rows lack)", b.Name)
}

// atomCounts are OSU's iterations and warm-ups of an atomic test at size
// bytes. osu_fop_latency and osu_cas_latency keep the small counts.
// osu_acc_latency and osu_get_acc_latency switch to the large ones above
// LARGE_MESSAGE_SIZE by overwriting options.iterations and skip, so that
// in osu_acc_latency every later datatype's table keeps them, small sizes
// included (the -T loop of main around run_acc_with_*); and
// run_acc_with_lock sets skip to iterations_large, not skip_large
// (osu_acc_latency.c: "options.skip = options.iterations_large;").
func (r *Run) atomCounts(size int64) (iters, skip int) {
	a, o := atomOf(r.Bench), r.Opts
	if a.element {
		return o.Iterations, o.Skip
	}
	sizes := o.Sizes()
	large := size > LargeMessageSize || (a.op == kernel.AtomAcc && r.Table > 0 && sizes[len(sizes)-1] > LargeMessageSize)
	if !large {
		return o.Iterations, o.Skip
	}
	if a.op == kernel.AtomAcc && o.Sync == syncNames[kernel.SyncLock] {
		return o.IterationsLarge, o.IterationsLarge
	}
	return o.IterationsLarge, o.SkipLarge
}

// atomSpec is the kernel's part of an atomic measurement at size bytes.
func (r *Run) atomSpec(size int64) *kernel.AtomSpec {
	a, o := atomOf(r.Bench), r.Opts
	iters, skip := r.atomCounts(size)
	sync := index(syncNames, o.Sync)
	s := &kernel.AtomSpec{Op: a.op, Sync: sync, Win: index(winNames, o.Win), Type: typeIndex[r.TypeName],
		Count: int(r.Elements(size)), Bytes: size, Iters: iters, Skip: skip, PreWin: a.barriers[sync][0],
		PreLoop: a.barriers[sync][1], Exclusive: a.exclusive[sync], Check: o.Validate, Fill: a.fill}
	if a.element {
		// allocate_atomic_memory's buffers and window of max_message_size
		// bytes, one element operated on. Where -m is below the datatype
		// OSU's window is too small for its element; here it holds one.
		s.Count, s.Bytes = 1, max(o.MaxSize, int64(r.TypeSize))
	}
	return s
}

// atomTrials are -c's counts of one rank in one datatype's table, as
// osu_util_validation.c's atomic_dv_summary keeps them.
type atomTrials struct {
	typ                           string
	trials, failures, first, last int64
}

// measureAtom is Measure for the atomic tests: rank 0's figures and, with
// -c, every rank's verification counts gathered on rank 0.
func measureAtom(r *Run, size int64) (Result, error) {
	s := r.atomSpec(size)
	res, err := kernel.RunAtom(r.World, s)
	if err != nil {
		return Result{}, err
	}
	var counts []float64
	if s.Check {
		counts, err = r.World.GatherFloat64s([]float64{float64(res.Trials), float64(res.Failures),
			float64(res.First), float64(res.Last)})
		if err != nil {
			return Result{}, err
		}
	}
	if r.Rank != 0 {
		return Result{}, nil
	}
	out := rmaFigures(&kernel.RMASpec{Shape: kernel.ShapeLat, Sync: s.Sync, Iters: s.Iters},
		kernel.RMAResult{Time: res.Time, Samples: res.Samples})
	for rank := 0; rank < len(counts)/4; rank++ {
		c := counts[4*rank : 4*rank+4]
		out.Errors += int(c[1])
		r.addTrials(rank, int64(c[0]), int64(c[1]), int64(c[2]), int64(c[3]))
	}
	return out, nil
}

// addTrials adds one size's counts of rank to its node of the current
// datatype: OSU starts a node when the datatype differs from the last
// one's (atomic_dv_record), and numbers the trials across the node.
func (r *Run) addTrials(rank int, trials, failures, first, last int64) {
	for len(r.atomSum) <= rank {
		r.atomSum = append(r.atomSum, nil)
	}
	nodes := r.atomSum[rank]
	if len(nodes) == 0 || nodes[len(nodes)-1].typ != r.TypeName {
		nodes = append(nodes, &atomTrials{typ: r.TypeName})
		r.atomSum[rank] = nodes
	}
	n := nodes[len(nodes)-1]
	if failures > 0 {
		if n.failures == 0 {
			n.first = n.trials + first
		}
		n.last = n.trials + last
	}
	n.trials += trials
	n.failures += failures
}

// atomSummary is rank 0's print of every rank's validation block, as each
// rank of OSU prints its own in turn after its tables (main:
// atomic_data_validation_print_summary between dashes): the nodes latest
// first, the type name cut to 8 characters (its buffer of 10, snprintf's
// size 9) and "MPI_SUM" for every test.
func (t *Text) atomSummary(sum [][]*atomTrials, np int) (skipped bool, err error) {
	const dashes = "-------------------------------------------"
	for rank := range np {
		t.Printf("%s\nAtomic Data Validation results for Rank=%d:\n", dashes, rank)
		var nodes []*atomTrials
		if rank < len(sum) {
			nodes = sum[rank]
		}
		failed := 0
		for i := len(nodes) - 1; i >= 0; i-- {
			n := nodes[i]
			name := n.typ
			if len(name) > 8 {
				name = name[:8]
			}
			if n.failures > 0 {
				failed++
				t.Printf("FAILED: MPI_SUM on %s had %d of %d tests fail data validation.\n", name, n.failures, n.trials)
				t.Printf("\t\tFirst failure at trial %d, last failure at trial %d.\n", n.first, n.last)
			}
		}
		switch {
		case len(nodes) == 0:
			skipped = true // OSU: "SKIPPED: No validations were performed!" on stderr
		case failed == 0:
			t.Printf("PASSED: All %d combinations of ops and datatypes tested passed.\n", len(nodes))
		default:
			t.Printf("FAILED: %d of the %d combinations of ops and datatypes tested failed.\n", failed, len(nodes))
		}
		t.Printf("%s\n", dashes)
	}
	return skipped, t.Err()
}

// atomPreamble is print_header_one_sided's lines before each datatype's
// table of osu_acc_latency, osu_fop_latency and osu_cas_latency: the
// title, the window and the synchronisation repeated for every datatype.
func (t *Text) atomPreamble(b *Benchmark, o *Options) error {
	t.Printf("%s\n# Window creation: %s\n# Synchronization: %s\n", Title(b), winInfo[index(winNames, o.Win)],
		syncInfo[index(syncNames, o.Sync)])
	return t.Err()
}

// atomSummary is the end of an atomic test's run with -c: rank 0 prints
// every rank's block, OSU's MPI_Barrier after each rank's turn kept.
func (d *driver) atomSummary() error {
	r := d.run
	err := d.speak(func() error {
		skipped, err := d.text.atomSummary(r.atomSum, r.Size)
		if err == nil && skipped {
			_, err = fmt.Fprintln(r.Env.Stderr, "SKIPPED: No validations were performed!")
		}
		return err
	})
	if err != nil {
		return err
	}
	return d.barriers(r.Size)
}
