package imb

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// ioDefaultOrder is IMB-IO's default benchmark list (IMB's DEFC), written
// out by hand.
var ioDefaultOrder = []string{
	"S_Write_Indv", "S_IWrite_Indv", "S_Write_Expl", "S_IWrite_Expl",
	"P_Write_Indv", "P_IWrite_Indv", "P_Write_Shared", "P_IWrite_Shared",
	"P_Write_Priv", "P_IWrite_Priv", "P_Write_Expl", "P_IWrite_Expl",
	"C_Write_Indv", "C_IWrite_Indv", "C_Write_Shared", "C_IWrite_Shared",
	"C_Write_Expl", "C_IWrite_Expl",
	"S_Read_Indv", "S_IRead_Indv", "S_Read_Expl", "S_IRead_Expl",
	"P_Read_Indv", "P_IRead_Indv", "P_Read_Shared", "P_IRead_Shared",
	"P_Read_Priv", "P_IRead_Priv", "P_Read_Expl", "P_IRead_Expl",
	"C_Read_Indv", "C_IRead_Indv", "C_Read_Shared", "C_IRead_Shared",
	"C_Read_Expl", "C_IRead_Expl",
	"Open_Close",
}

// ioCallOf is the MPI-IO call of each definition table (sections 4.2.4.1
// to 4.2.4.9) for a blocking benchmark name.
var ioCallOf = map[string]string{
	"S_Indv": "write", "S_Expl": "write_at",
	"P_Indv": "write", "P_Expl": "write_at", "P_Shared": "write_shared", "P_Priv": "write",
	"C_Indv": "write_all", "C_Expl": "write_at_all", "C_Shared": "write_ordered",
}

func TestIOTable(t *testing.T) {
	if got := IOSuite.Names(); !slices.Equal(got, ioDefaultOrder) {
		t.Fatalf("IO table order\n got %v\nwant %v", got, ioDefaultOrder)
	}
	for _, b := range IO {
		if b.Name == "Open_Close" {
			if !b.NoBytes || b.Modes != nil || b.Factor != 0 || b.IO.Access != IONone {
				t.Errorf("Open_Close: %+v, want a Sync type: no bytes, no mode, no throughput", b)
			}
			continue
		}
		nonBlocking := strings.Contains(b.Name, "_IWrite") || strings.Contains(b.Name, "_IRead")
		write := strings.Contains(b.Name, "Write")
		wantClass := map[byte]Class{'S': SingleTransfer, 'P': ParallelTransfer, 'C': Collective}[b.Name[0]]
		var wantModes []Mode
		switch {
		case nonBlocking:
			wantModes = []Mode{NonBlocking}
		case write:
			wantModes = []Mode{Aggregate, NonAggregate}
		default:
			wantModes = []Mode{Aggregate}
		}
		if b.Class != wantClass || !slices.Equal(b.Modes, wantModes) || b.Factor != 1 || b.TimeScale != 1 ||
			b.IO.Write != write || b.IO.NonBlocking != nonBlocking || b.NoBytes {
			t.Errorf("%s: class %v modes %v factor %g write %v nb %v, want %v %v 1 %v %v",
				b.Name, b.Class, b.Modes, b.Factor, b.IO.Write, b.IO.NonBlocking, wantClass, wantModes, write, nonBlocking)
		}
		call := ioCallOf[b.Name[:2]+b.IO.Access.String()]
		if !write {
			call = strings.Replace(call, "write", "read", 1)
		}
		want := "MPI_File_" + call
		switch {
		case nonBlocking && b.Class == Collective:
			want += "_begin/_end"
		case nonBlocking:
			want = "MPI_File_i" + call + ", MPI_Wait"
		}
		if b.Calls != want {
			t.Errorf("%s: calls %q, want %q", b.Name, b.Calls, want)
		}
	}
}

func TestIOLookupIMBSpelling(t *testing.T) {
	for _, n := range []string{"p_write_indv", "P_IWRITE_SHARED", "open_close", "c_iread_expl"} {
		if _, ok := IOSuite.Lookup(n); !ok {
			t.Errorf("Lookup(%q) failed", n)
		}
	}
}

// TestFilePortion checks IMB_get_rank_portion's split against hand-made
// cases and its rules: contiguous, in rank order, 4-byte units.
func TestFilePortion(t *testing.T) {
	cases := []struct {
		x, np int
		want  [][2]int
	}{
		{0, 2, [][2]int{{0, 0}, {0, 0}}},
		{1, 2, [][2]int{{0, 1}, {4, 0}}},
		{5, 2, [][2]int{{0, 4}, {4, 1}}},
		{5, 4, [][2]int{{0, 4}, {4, 1}, {8, 0}, {8, 0}}},
		{1024, 3, [][2]int{{0, 344}, {344, 340}, {684, 340}}},
		{16, 4, [][2]int{{0, 4}, {4, 4}, {8, 4}, {12, 4}}},
	}
	for _, c := range cases {
		for r, w := range c.want {
			if pos, n := filePortion(r, c.np, c.x); pos != w[0] || n != w[1] {
				t.Errorf("filePortion(%d, %d, %d) = %d, %d; want %d, %d", r, c.np, c.x, pos, n, w[0], w[1])
			}
		}
	}
	for np := 1; np <= 8; np++ {
		for x := 0; x <= 200; x++ {
			next := 0
			for r := 0; r < np; r++ {
				pos, n := filePortion(r, np, x)
				if n == 0 {
					continue
				}
				if pos != next || pos%4 != 0 || (pos+n < x && n%4 != 0) {
					t.Fatalf("filePortion(%d, %d, %d) = %d, %d after %d bytes", r, np, x, pos, n, next)
				}
				next += n
			}
			if next != x {
				t.Fatalf("np %d x %d: the portions cover %d bytes", np, x, next)
			}
		}
	}
}

// TestIOLayout checks the offsets of section 4.2.4: S_ moves x bytes at
// j·x, P_/C_ move their portion at j·x + pos, _priv its portion stacked.
func TestIOLayout(t *testing.T) {
	spec := func(a IOAccess) *IOSpec { return &IOSpec{Access: a, Write: true} }
	cases := []struct {
		name  string
		class Class
		a     IOAccess
		rank  int
		q, x  int
		want  ioLayout
	}{
		{"S_expl", SingleTransfer, IOExpl, 0, 1, 1000, ioLayout{0, 1000, 1000, 1000}},
		{"S_indv", SingleTransfer, IOIndv, 0, 1, 7, ioLayout{0, 7, 7, 7}},
		{"P_expl rank 1", ParallelTransfer, IOExpl, 1, 2, 1000, ioLayout{500, 500, 1000, 1000}},
		{"P_indv rank 2", ParallelTransfer, IOIndv, 2, 3, 1024, ioLayout{684, 340, 1024, 1024}},
		{"C_shared rank 1", Collective, IOShared, 1, 2, 5, ioLayout{4, 1, 5, 5}},
		{"P_priv rank 1", ParallelTransfer, IOPriv, 1, 2, 1000, ioLayout{0, 500, 500, 1000}},
		{"P_priv rank 2", ParallelTransfer, IOPriv, 2, 3, 1024, ioLayout{0, 340, 340, 1024}},
	}
	for _, c := range cases {
		if got := ioLayoutOf(spec(c.a), c.class, c.rank, c.q, c.x); got != c.want {
			t.Errorf("%s: layout %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestIOFileName(t *testing.T) {
	cases := []struct {
		multi bool
		group int
		per   bool
		rank  int
		want  string
	}{
		{false, 0, false, 3, "IMB_out"},
		{true, 1, false, 3, "IMB_out_g1"},
		{false, 0, true, 3, "IMB_out_3"},
		{true, 2, true, 5, "IMB_out_g2_5"},
	}
	for _, c := range cases {
		if got := ioFileName(c.multi, c.group, c.per, c.rank); got != c.want {
			t.Errorf("ioFileName(%v, %d, %v, %d) = %q, want %q", c.multi, c.group, c.per, c.rank, got, c.want)
		}
	}
	for _, b := range IO {
		per := b.IO.perProcess(b.Class)
		if want := b.Class == SingleTransfer || strings.HasSuffix(b.Name, "_Priv"); per != want {
			t.Errorf("%s: per-process file %v, want %v", b.Name, per, want)
		}
	}
}

// TestIORepetitionCounts: sample 3 (section 6.3), aggregate and
// non-aggregate, as the IO benchmarks ask for them.
func TestIORepetitionCounts(t *testing.T) {
	s := &IOSuite.Settings
	aggr := map[int]int{0: 50, 1: 50, 262144: 50, 524288: 32, 1 << 20: 16, 2 << 20: 8, 4 << 20: 4, 8 << 20: 2, 16 << 20: 1}
	nonAggr := map[int]int{0: 10, 1: 10, 1 << 20: 10, 2 << 20: 8, 4 << 20: 4, 16 << 20: 1}
	for x, want := range aggr {
		for _, m := range []Mode{Aggregate, NonBlocking} {
			if got := s.Repetitions(x, m); got != want {
				t.Errorf("%v reps for %d bytes: %d, want %d", m, x, got, want)
			}
		}
	}
	for x, want := range nonAggr {
		if got := s.Repetitions(x, NonAggregate); got != want {
			t.Errorf("non-aggregate reps for %d bytes: %d, want %d", x, got, want)
		}
	}
	if s.NBarr != 2 || s.TargetCPUSecs != 0.1 || len(s.DefaultLengths(1)) != 26 {
		t.Errorf("settings_io.h: N_BARR %d, TARGET_CPU_SECS %g, %d lengths", s.NBarr, s.TargetCPUSecs, len(s.DefaultLengths(1)))
	}
}

// TestIOOverlapFormula: overlap = (t_pure + t_CPU − t_ovrl) / min(t_pure,
// t_CPU) of section 4.2.5.2 in percent, not clamped; the wanted values are
// worked out by hand.
func TestIOOverlapFormula(t *testing.T) {
	cases := []struct{ pure, cpu, ovrl, want float64 }{
		{100, 100, 200, 0},         // no overlap: t_ovrl = t_pure + t_CPU
		{100, 100, 100, 100},       // perfect: t_ovrl = max
		{50, 100, 125, 50},         // (50+100-125)/50: half the I/O hidden
		{100, 40, 120, 50},         // (100+40-120)/40: min is t_CPU
		{2000, 100100, 101000, 55}, // (2000+100100-101000)/2000
		{100, 100, 250, -50},       // (100+100-250)/100: slower than serial
		{30, 100000, 100120, -300}, // (30+100000-100120)/30 = -90/30: the overlapped run 90 µs slower than serial
		{100, 100, 90, 110},        // (100+100-90)/100: faster than perfect
		{0, 100, 100, 0},           // no I/O time: no value
	}
	for _, c := range cases {
		if got := Overlap(c.pure, c.cpu, c.ovrl); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Overlap(%g, %g, %g) = %g, want %g", c.pure, c.cpu, c.ovrl, got, c.want)
		}
	}
}

// TestIOBufValue: BUF_VALUE(rank,i) = 10000000·(1+rank) + i mod 10000000
// as little-endian C ints.
func TestIOBufValue(t *testing.T) {
	if ioBufValue(0, 0) != 10000000 || ioBufValue(2, 5) != 30000005 || ioBufValue(0, 10000003) != 10000003 {
		t.Errorf("ioBufValue: %d %d %d", ioBufValue(0, 0), ioBufValue(2, 5), ioBufValue(0, 10000003))
	}
	all := ioPattern(1, 0, 64)
	if want := []byte{0x00, 0x2d, 0x31, 0x01, 0x01, 0x2d, 0x31, 0x01}; !slices.Equal(all[:8], want) {
		t.Errorf("rank 1 pattern starts % x, want % x", all[:8], want)
	}
	for off := 0; off < 16; off++ {
		for n := 0; n <= 16; n++ {
			if got := ioPattern(1, int64(off), n); !slices.Equal(got, all[off:off+n]) {
				t.Fatalf("ioPattern(1, %d, %d) = % x, want % x", off, n, got, all[off:off+n])
			}
		}
	}
}

// ioPattern is n bytes of rank's IMB-IO pattern from byte off on.
func ioPattern(rank int, off int64, n int) []byte {
	b := make([]byte, n)
	fillIOPattern(b, rank, off)
	return b
}

// TestIOReadDefects: the blocks of a checked read must be the process's
// check blocks of their repetitions; a stale block (repetition 0 again)
// or another process's block shows.
func TestIOReadDefects(t *testing.T) {
	const n, reps = 5, 3
	var got []byte
	for j := 0; j < reps; j++ {
		got = append(got, checkBlock(1, j, n)...)
	}
	if d := ioReadDefects(got, 1, n, reps); d != 0 {
		t.Errorf("correct reads: %d defects", d)
	}
	if d := ioReadDefects(got, 0, n, reps); d != n*reps {
		t.Errorf("another process's blocks: %d defects, want %d (every byte)", d, n*reps)
	}
	copy(got[n:], checkBlock(1, 0, n))
	if d := ioReadDefects(got, 1, n, reps); d != n {
		t.Errorf("repetition 1 delivering repetition 0's block: %d defects, want %d", d, n)
	}
}

// TestIOTileDefects: shared-pointer regions pass in any interleaving and
// fail when a block is missing, doubled or out of place.
func TestIOTileDefects(t *testing.T) {
	ns := []int{8, 12, 4}
	reps := 3
	order := []int{1, 0, 0, 2, 1, 2, 2, 0, 1} // an arbitrary interleaving
	var img []byte
	for _, r := range order {
		img = append(img, ioPattern(r, 0, ns[r])...)
	}
	blocks := func(ns []int) [][][]byte {
		b := make([][][]byte, len(ns))
		for r, n := range ns {
			for j := 0; j < reps; j++ {
				b[r] = append(b[r], ioPattern(r, 0, n))
			}
		}
		return b
	}
	if d := ioTileDefects(img, blocks(ns)); d != 0 {
		t.Errorf("interleaved writes: %d defects", d)
	}
	bad := slices.Clone(img)
	copy(bad[8:], ioPattern(1, 0, 12)) // rank 0's block overwritten by rank 1's
	if d := ioTileDefects(bad, blocks(ns)); d == 0 {
		t.Error("a doubled block shows no defects")
	}
	shifted := append([]byte{0}, img[:len(img)-1]...)
	if d := ioTileDefects(shifted, blocks(ns)); d == 0 {
		t.Error("a region shifted by one byte shows no defects")
	}
}

// TestIOSharedReadTiling: P_ _shared reads of tiny blocks (x = 5 on two
// processes: 4 and 1 bytes) are matched against the file in the order
// each process read them, whatever the interleaving.
func TestIOSharedReadTiling(t *testing.T) {
	x, reps := 5, 6
	file := ioPattern(0, 0, reps*x)
	// offsets the shared pointer handed out: rank 1 first twice, then mixed
	ns := []int{4, 1}
	order := []int{1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0}
	blocks := make([][][]byte, 2)
	o := 0
	for _, r := range order {
		blocks[r] = append(blocks[r], file[o:o+ns[r]])
		o += ns[r]
	}
	if d := ioTileDefects(file, blocks); d != 0 {
		t.Errorf("shared reads: %d defects", d)
	}
	blocks[0][2] = ioPattern(0, 1, 4) // one read one byte off
	if d := ioTileDefects(file, blocks); d == 0 {
		t.Error("a shared read one byte off shows no defects")
	}
}

// TestIOFileSize: IMB_init_file's sizes, raised to what the reads need.
func TestIOFileSize(t *testing.T) {
	cases := []struct {
		name string
		b    string
		q    int
		lens []int
		want int64
	}{
		{"small lengths: 50 samples", "P_Read_Expl", 2, []int{0, 1024}, 50 * 1024},
		{"16 MiB", "P_Read_Expl", 2, []int{16 << 20}, 16 << 20},
		{"1 MiB: OVERALL_VOL", "S_Read_Indv", 1, []int{1 << 20}, 16 << 20},
		{"only 0: 2^MAXMSGLOG", "C_Read_Indv", 2, []int{0}, 16 << 20},
		{"private share", "P_Read_Priv", 2, []int{1024}, 25 * 1024},
		{"private share, odd", "P_Read_Priv", 3, []int{1000}, (50*1000+2)/3 + 200},
	}
	for _, c := range cases {
		b, _ := IOSuite.Lookup(c.b)
		ic := &ioCase{caseEnv: &caseEnv{b: b, set: &IOSuite.Settings, q: c.q, lens: c.lens}, spec: b.IO}
		if got := ic.fileSize(); got != c.want {
			t.Errorf("%s: file size %d, want %d", c.name, got, c.want)
		}
		for r := 0; r < c.q; r++ {
			ic.rank = r
			for _, x := range c.lens {
				lay := ic.layout(x)
				if need := int64(IOSuite.Settings.Repetitions(x, Aggregate)) * lay.extent; need > ic.fileSize() {
					t.Errorf("%s rank %d x %d: reads need %d bytes, file has %d", c.name, r, x, need, ic.fileSize())
				}
			}
		}
	}
}

// TestIORemoveHelpers: the signal-time cleanup removes a file and the
// helper files MPI-IO libraries make for it, and nothing else.
func TestIORemoveHelpers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a[b]*dir")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := []string{"IMB_out_g1", ".IMB_out_g1.shfp.123.456", "IMB_out_g1-77-0.lock", "IMB_out_g1.locktest.0"}
	others := []string{"IMB_out_g10x", "keep", ".IMB_out.shfp.1"}
	for _, n := range append(slices.Clone(mine), others...) {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removeWithHelpers(filepath.Join(dir, "IMB_out_g1"))
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	sort.Strings(others)
	if !slices.Equal(left, others) {
		t.Errorf("left %v, want %v", left, others)
	}
}
