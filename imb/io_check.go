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

func ioPattern(rank int, off int64, n int) []byte {
	b := make([]byte, n)
	fillIOPattern(b, rank, off)
	return b
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
}

// ioLayoutOf is the layout of rank of q for length x (IMB_init_transfer).
// S_ moves all x bytes; the others split x into portions (section 4.2.4),
// so that X = x is the amount all processes move per step. _priv stacks
// the portions in the private file, the others interleave them in the
// common file, one x-byte step after the other.
func ioLayoutOf(spec *IOSpec, class Class, rank, q, x int) ioLayout {
	if class == SingleTransfer {
		return ioLayout{0, x, int64(x)}
	}
	pos, n := filePortion(rank, q, x)
	if spec.Access == IOPriv {
		return ioLayout{0, n, int64(n)}
	}
	return ioLayout{int64(pos), n, int64(x)}
}

// unordered: P_ _shared, whose blocks land in the order the processes
// reach the shared pointer.
func (c *ioCase) unordered() bool {
	return c.spec.Access == IOShared && c.b.Class != Collective
}

func (c *ioCase) verify(lay ioLayout, reps int) (int, error) {
	if c.spec.Write {
		return c.verifyWrite(lay, reps)
	}
	if c.unordered() {
		return c.verifySharedRead(lay, reps)
	}
	return ioReadDefects(c.recv.Bytes()[:reps*lay.n], lay, reps), nil
}

// ioReadDefects counts the bytes of the reps blocks read that differ from
// the read file's content (rank 0's pattern) at their offsets.
func ioReadDefects(got []byte, lay ioLayout, reps int) int {
	d := 0
	for j := 0; j < reps; j++ {
		blk := got[j*lay.n : (j+1)*lay.n]
		d += countDiff(blk, ioPattern(0, lay.pos+int64(j)*lay.extent, lay.n))
	}
	return d
}

// verifyWrite reads the written part of the file back through MPI-IO, on
// MPI_COMM_SELF, once every process has synchronised it (the loop ended
// with MPI_File_sync; the barrier orders the read after it), and counts
// the bytes that differ from what the transfers should have left there,
// plus the bytes by which the file is longer or shorter.
func (c *ioCase) verifyWrite(lay ioLayout, reps int) (int, error) {
	if err := c.fileComm.Barrier(); err != nil {
		return 0, err
	}
	defects := 0
	if c.fileOwner() {
		want := int64(reps) * lay.extent
		img, size, err := readBack(c.path, want)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", c.path, err)
		}
		defects = int(max(size-want, want-size)) + c.imageDefects(img, lay, reps)
	}
	return defects, c.fileComm.Barrier()
}

// readBack reads the first n bytes of a file through a handle of its own
// and returns them (fewer at the end of the file) with the file's size.
func readBack(path string, n int64) ([]byte, int64, error) {
	f, err := mpi.OpenFile(mpi.FileSelf(), path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return nil, 0, err
	}
	img := make([]byte, min(n, size))
	got, err := f.ReadAt(0, img)
	return img[:got], size, err
}

// imageDefects compares the region read back with the blocks of every
// process of the file.
func (c *ioCase) imageDefects(img []byte, lay ioLayout, reps int) int {
	if c.perProcess() {
		return ioImageDefects(img, []ioLayout{lay}, []int{c.rank}, reps)
	}
	lays, ranks := make([]ioLayout, c.q), make([]int, c.q)
	for r := range lays {
		lays[r], ranks[r] = ioLayoutOf(c.spec, c.b.Class, r, c.q, int(lay.extent)), r
	}
	if c.unordered() {
		blocks := make([][][]byte, c.q)
		for r := range blocks {
			p := ioPattern(r, 0, lays[r].n)
			for j := 0; j < reps && len(p) > 0; j++ {
				blocks[r] = append(blocks[r], p)
			}
		}
		return ioTileDefects(img, blocks)
	}
	return ioImageDefects(img, lays, ranks, reps)
}

// ioImageDefects counts the bytes of img that differ from reps steps in
// which every process ranks[i] wrote the start of its pattern at
// lays[i].pos + j·extent.
func ioImageDefects(img []byte, lays []ioLayout, ranks []int, reps int) int {
	d := 0
	for i, lay := range lays {
		want := ioPattern(ranks[i], 0, lay.n)
		for j := 0; j < reps; j++ {
			off := lay.pos + int64(j)*lay.extent
			end := min(off+int64(lay.n), int64(len(img)))
			if off >= end {
				continue // missing bytes: counted by the size difference
			}
			d += countDiff(img[off:end], want[:end-off])
		}
	}
	return d
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
// order of them that reproduces the region read, as for the writes.
func (c *ioCase) verifySharedRead(lay ioLayout, reps int) (int, error) {
	all, err := c.comm.GatherIOBytes(c.recv.Bytes()[:reps*lay.n])
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
	return ioTileDefects(ioPattern(0, 0, reps*int(lay.extent)), blocks), nil
}
