// Package beffio is b_eff_io, the effective I/O bandwidth benchmark of
// Rabenseifner and Koniges: five pattern types (Fig. 1), the 43 patterns
// of Table 2, the access methods write, rewrite and read, a time-driven
// schedule, and the b_eff_io value of every partition and of the system.
package beffio

// Sizes in bytes; as in the original, 1 kB = 1024 and 1 MB = 1024·1024
// for chunk sizes and memory. Bandwidths use MB = 10^6 bytes.
const (
	KB = 1024
	MB = 1024 * 1024
)

// SumU is ΣU of Table 2, the time units of one access method.
const SumU = 64

// Types is the number of pattern types.
const Types = 5

// TypeNames are the pattern types of Fig. 1, named as the original names
// them in its protocol.
var TypeNames = [Types]string{"scatter", "shared", "separated", "segmented", "seg_coll"}

// Accesses are the access methods, in the order they run.
var Accesses = [3]string{"write", "rewrite", "read"}

// Pattern is one row of Table 2.
type Pattern struct {
	No   int  // the pattern number of Table 2 (0..42)
	Type int  // 0..4
	L    int  // l: contiguous chunk on disk
	Mem  int  // L: contiguous chunk in memory (= l except type 0)
	U    int  // time units
	Pos  int  // row of the chunk-size table: 1..7, 8 for pattern 2, 0 none
	Fill bool // last pattern of types 3 and 4: fills the segment up
}

// row is a Table 2 row before M_PART is known: l or mem < 0 means M_PART.
type row struct{ l, mem, u, pos int }

const mpart = -1

// The rows of Table 2 with the positions of the original's summary
// table (1 kB, 1 kB+8, 32 kB, 32 kB+8, 1 MB, 1 MB+8, M_PART). The
// first pattern of each type has U = 0: the original runs it once (a
// time-driven loop with no time still makes one call) and counts its
// bytes and time in the type's value, but it carries no weight in the
// schedule; it is the "first chunk" that starts the file.
var (
	scatterRows = []row{
		{MB, MB, 0, 0}, {mpart, mpart, 4, 7}, {MB, 2 * MB, 4, 8}, {MB, MB, 4, 5},
		{32 * KB, MB, 2, 3}, {KB, MB, 2, 1},
		{32*KB + 8, MB + 256, 2, 4}, {KB + 8, MB + 8*KB, 2, 2}, {MB + 8, MB + 8, 2, 6},
	}
	sharedRows = []row{
		{MB, MB, 0, 0}, {mpart, mpart, 4, 7}, {MB, MB, 2, 5}, {32 * KB, 32 * KB, 1, 3},
		{KB, KB, 1, 1}, {32*KB + 8, 32*KB + 8, 1, 4}, {KB + 8, KB + 8, 1, 2}, {MB + 8, MB + 8, 2, 6},
	}
	separatedRows = []row{
		{MB, MB, 0, 0}, {mpart, mpart, 2, 7}, {MB, MB, 2, 5}, {32 * KB, 32 * KB, 1, 3},
		{KB, KB, 1, 1}, {32*KB + 8, 32*KB + 8, 1, 4}, {KB + 8, KB + 8, 1, 2}, {MB + 8, MB + 8, 2, 6},
	}
)

// MPart is M_PART = max(2 MB, memory per process / 128). "Memory of one
// node" is, as in the original (-MB: "a node is the unit used by one MPI
// process"), the memory of one MPI process. Like the original, the memory
// is capped at 128 GB so that a chunk stays below 2^31 bytes.
func MPart(memMB int) int {
	return max(2*MB, min(memMB, 1024*128)*(MB/128))
}

// Table is Table 2 with M_PART resolved: 9 + 8 + 8 + 9 + 9 patterns.
// Types 3 and 4 repeat the rows of type 2 and end with the fill pattern,
// whose size is known only when the segment is (see Segment).
func Table(mp int) []Pattern {
	var t []Pattern
	add := func(typ int, rows []row) {
		for _, r := range rows {
			p := Pattern{No: len(t), Type: typ, L: r.l, Mem: r.mem, U: r.u, Pos: r.pos}
			if p.L == mpart {
				p.L = mp
			}
			if p.Mem == mpart {
				p.Mem = mp
			}
			t = append(t, p)
		}
	}
	add(0, scatterRows)
	add(1, sharedRows)
	add(2, separatedRows)
	for typ := 3; typ <= 4; typ++ {
		add(typ, separatedRows)
		t = append(t, Pattern{No: len(t), Type: typ, Fill: true})
	}
	return t
}

// OfType is the patterns of one type, in order.
func OfType(t []Pattern, typ int) []Pattern {
	var out []Pattern
	for _, p := range t {
		if p.Type == typ {
			out = append(out, p)
		}
	}
	return out
}

// MaxMem is the largest chunk in memory of the table: the buffer size.
func MaxMem(t []Pattern) int {
	m := 0
	for _, p := range t {
		m = max(m, p.Mem)
	}
	return m
}
