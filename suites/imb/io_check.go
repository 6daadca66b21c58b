package imb

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"mpibench/mpi"
)

// ioBufValue is settings_io.h's BUF_VALUE(rank, i) = 10000000·(1+rank) +
// i mod 10000000, the int at index i of rank's IMB-IO buffer (section
// 5.2.5). The values wrap as C ints do beyond rank 213.
func ioBufValue(rank, i int) int32 { return int32(10000000*(1+rank) + i%10000000) }

// fillIOPattern sets dst[j] to byte off+j of rank's pattern: the int array
// of ioBufValue seen as bytes. As for MPI-1 we fix little-endian order so
// that files and checks agree on every host.
func fillIOPattern(dst []byte, rank int, off int64) {
	var word [4]byte
	for j := 0; j < len(dst); {
		pos := off + int64(j)
		binary.LittleEndian.PutUint32(word[:], uint32(ioBufValue(rank, int(pos/4))))
		for b := int(pos % 4); b < 4 && j < len(dst); b++ {
			dst[j] = word[b]
			j++
		}
	}
}

// filePortion is IMB_get_rank_portion: x bytes split over np processes in
// units of sizeof(int), the first x/4 mod np processes one unit more, the
// last piece cut at x. It returns the offset and size of rank's piece.
func filePortion(rank, np, x int) (pos, n int) {
	const unit = 4
	units := (x + unit - 1) / unit
	base, extra := units/np, units%np
	if rank < extra {
		pos = rank * (base + 1) * unit
		n = (base + 1) * unit
	} else {
		pos = (rank*base + extra) * unit
		n = base * unit
	}
	return pos, max(0, min(n, x-pos))
}

// ioLayout places one process's transfers of one length in its file:
// transfer j moves n bytes at offset pos + j·extent (for P_ _shared, only
// the amounts are known beforehand).
type ioLayout struct {
	pos    int64
	n      int
	extent int64
	x      int // the length
}

// ioLayoutOf is the layout of rank of q for length x (IMB_init_transfer).
// S_ moves all x bytes; the others split x into portions (section 4.2.4),
// so that X = x is the amount all processes move per step. _priv stacks
// the portions in the private file, the others interleave them in the
// common file, one x-byte step after the other.
func ioLayoutOf(spec *IOSpec, class Class, rank, q, x int) ioLayout {
	if class == SingleTransfer {
		return ioLayout{0, x, int64(x), x}
	}
	pos, n := filePortion(rank, q, x)
	if spec.Access == IOPriv {
		return ioLayout{0, n, int64(n), x}
	}
	return ioLayout{int64(pos), n, int64(x), x}
}

// unordered: P_ _shared, whose blocks land in the order the processes
// reach the shared pointer.
func (c *ioCase) unordered() bool {
	return c.spec.Access == IOShared && c.b.Class != Collective
}

// checkBlock is the block of n bytes that rank's transfer in repetition
// rep moves in a checked run: check.h's content (pattern.h), which
// differs between ranks and repetitions in every byte.
func checkBlock(rank, rep, n int) []byte {
	b := make([]byte, n)
	mpi.PatternBytes(b, rank, int64(rep), 0)
	return b
}

// fileRanks are the processes whose blocks share this rank's file, with
// their layouts for length x: this rank alone in a per-process file.
func (c *ioCase) fileRanks(x int) ([]int, []ioLayout) {
	if c.perProcess() {
		return []int{c.rank}, []ioLayout{c.layout(x)}
	}
	ranks, lays := make([]int, c.q), make([]ioLayout, c.q)
	for r := range ranks {
		ranks[r], lays[r] = r, ioLayoutOf(c.spec, c.b.Class, r, c.q, x)
	}
	return ranks, lays
}

// image is the file region [0, reps·extent) that a correct checked write
// of length x leaves (and that a checked read is given): repetition j of
// process r at its offset pos_r + j·extent, holding checkBlock(r, j). For
// the shared file pointer of P_ it is one order of the blocks of many.
func (c *ioCase) image(x, reps int) []byte {
	ranks, lays := c.fileRanks(x)
	img := make([]byte, int64(reps)*lays[0].extent)
	for i, lay := range lays {
		// a process without a portion (x below 4 bytes per process) may
		// have its pos beyond x
		for j := 0; j < reps && lay.n > 0; j++ {
			off := lay.pos + int64(j)*lay.extent
			mpi.PatternBytes(img[off:off+int64(lay.n)], ranks[i], int64(j), 0)
		}
	}
	return img
}

// writeImage gives the file of a checked read its content for length x
// before the sample: the image of a checked write, written by the file's
// owner through a handle of its own and closed before the sample opens
// the file. The barrier keeps the readers from opening it earlier.
func (c *ioCase) writeImage(x, reps int) error {
	if c.fileOwner() {
		f, err := mpi.OpenFile(mpi.FileSelf(), c.path)
		if err != nil {
			return fmt.Errorf("%s: %w", c.path, err)
		}
		if err = f.SetByteView(); err == nil {
			err = writePieces(&f, c.image(x, reps))
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.path, err)
		}
	}
	return c.comm.Barrier()
}

// writePieces writes img at offset 0 in 1 MiB pieces.
func writePieces(f *mpi.File, img []byte) error {
	for off := 0; off < len(img); off += 1 << 20 {
		if err := f.WriteAt(int64(off), img[off:min(len(img), off+1<<20)]); err != nil {
			return err
		}
	}
	return nil
}

// verify counts the defects of a checked sample of length x: a write by
// the file it left, a read by what each of its repetitions delivered.
func (c *ioCase) verify(x, reps int) (int, error) {
	lay := c.layout(x)
	if c.spec.Write {
		return c.verifyWrite(x, reps)
	}
	got := c.save.Bytes()[:reps*lay.n]
	if c.unordered() {
		return c.verifySharedRead(got, x, reps)
	}
	return ioReadDefects(got, c.rank, lay.n, reps), nil
}

// ioReadDefects counts the bytes of the reps blocks of n bytes read that
// differ from the image's block of the same process and repetition.
func ioReadDefects(got []byte, rank, n, reps int) int {
	d := 0
	for j := 0; j < reps; j++ {
		d += mpi.BadBytes(got[j*n:(j+1)*n], rank, int64(j), 0)
	}
	return d
}

// verifyWrite reads the written part of the file back through MPI-IO, on
// MPI_COMM_SELF, once every process has synchronised it (the loop ended
// with MPI_File_sync; the barrier orders the read after it), and counts
// the bytes that differ from the image, plus the bytes by which the file
// is longer or shorter.
func (c *ioCase) verifyWrite(x, reps int) (int, error) {
	if err := c.fileComm.Barrier(); err != nil {
		return 0, err
	}
	defects := 0
	if c.fileOwner() {
		want := c.image(x, reps)
		img, size, err := readBack(c.path, int64(len(want)))
		if err != nil {
			return 0, fmt.Errorf("%s: %w", c.path, err)
		}
		defects = int(max(size-int64(len(want)), int64(len(want))-size))
		if c.unordered() {
			defects += ioTileDefects(img, c.blocks(x, reps))
		} else {
			defects += countDiff(img, want[:len(img)])
		}
	}
	return defects, c.fileComm.Barrier()
}

// blocks are the blocks every process of the file writes, in order.
func (c *ioCase) blocks(x, reps int) [][][]byte {
	ranks, lays := c.fileRanks(x)
	blocks := make([][][]byte, len(ranks))
	for i, r := range ranks {
		for j := 0; j < reps && lays[i].n > 0; j++ {
			blocks[i] = append(blocks[i], checkBlock(r, j, lays[i].n))
		}
	}
	return blocks
}

// readBack reads the first n bytes of a file through a handle of its own
// and returns them (fewer at the end of the file) with the file's size.
func readBack(path string, n int64) ([]byte, int64, error) {
	f, err := mpi.OpenFile(mpi.FileSelf(), path)
	if err != nil {
		return nil, 0, err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	size, err := f.Size()
	if err != nil {
		return nil, 0, err
	}
	img := make([]byte, min(n, size))
	got, err := f.ReadAt(0, img)
	return img[:got], size, err
}

// ioTileDefects checks a region accessed through the shared file pointer:
// it must be an interleaving of the processes' blocks, blocks[r] in the
// order process r moved them, since the shared pointer only grows. It
// searches one (the blocks of different processes or offsets start with
// different ints, so the search rarely backtracks) and returns 0, or else
// the bytes beyond the longest prefix it could explain.
func ioTileDefects(img []byte, blocks [][][]byte) int {
	next := make([]int, len(blocks))
	best, budget := 0, 1<<20
	var tile func(o int) bool
	tile = func(o int) bool {
		best = max(best, o)
		if o == len(img) {
			return true
		}
		if budget--; budget < 0 {
			return false
		}
		for r, seq := range blocks {
			if next[r] == len(seq) {
				continue
			}
			p := seq[next[r]]
			if len(p) == 0 || o+len(p) > len(img) || !bytes.Equal(img[o:o+len(p)], p) {
				continue
			}
			next[r]++
			if tile(o + len(p)) {
				return true
			}
			next[r]--
		}
		return false
	}
	if tile(0) {
		return 0
	}
	return len(img) - best
}

// verifySharedRead checks P_ _shared reads, whose offsets only the shared
// pointer knew: rank 0 gathers every process's blocks and looks for an
// order of them that reproduces the image, as for the writes.
func (c *ioCase) verifySharedRead(got []byte, x, reps int) (int, error) {
	all, err := c.comm.GatherIOBytes(got)
	if err != nil || c.rank != 0 {
		return 0, err
	}
	blocks := make([][][]byte, len(all))
	for r, b := range all {
		n := len(b) / reps
		for j := 0; j < reps && n > 0; j++ {
			blocks[r] = append(blocks[r], b[j*n:(j+1)*n])
		}
	}
	return ioTileDefects(c.image(x, reps), blocks), nil
}
