package imb

import (
	"fmt"
	"slices"

	"mpibench/mpi"
	"mpibench/run/diskcheck"
)

// IODiskNeed is the most the IMB-IO files of cfg can take at once on size
// processes (issue 12, section 3): each case (benchmark and process count)
// deletes its files when it ends, so it is the largest case's files, each
// of the size IMB_init_file gives it (ioFileSize: writes and reads stay
// inside it), one per group, or one per process of a group for S_ and
// _priv; plus a reserve of one transfer step of every process, the free
// space below which the file system counts as full (see diskFull). It
// returns what makes the need, for the message.
func IODiskNeed(cfg *Config, size int) (string, int64) {
	s := SuiteByName(cfg.Suite)
	what, most, reserve := "IMB-IO", int64(0), int64(0)
	for _, name := range cfg.Benchmarks {
		b, _ := s.Lookup(name)
		if b.IO == nil || b.IO.Access == IONone {
			continue
		}
		lens := planLengths(&s.Settings, cfg.Lengths, b)
		for _, q := range s.ProcessCounts(size, cfg.NPMin, b.Class) {
			if b.Class == SingleTransfer && q < s.SingleQ {
				continue
			}
			groups := len(Layout(size, q, MapOrder(size, cfg.MapP, cfg.MapQ), cfg.Multi >= 0))
			bytes := int64(groups) * caseFiles(b, &s.Settings, q, lens)
			if bytes > most {
				most = bytes
				what = fmt.Sprintf("IMB-IO %s at %d bytes on %d processes", b.Name, slices.Max(lens), q)
			}
			reserve = max(reserve, int64(groups*q)*int64(slices.Max(lens)))
		}
	}
	return what, most + reserve
}

// caseFiles is the size of the files of one group of a case.
func caseFiles(b *Benchmark, set *Settings, q int, lens []int) int64 {
	if !b.IO.perProcess(b.Class) {
		return ioFileSize(b, set, q, lens, 0)
	}
	var bytes int64
	for rank := 0; rank < q; rank++ {
		bytes += ioFileSize(b, set, q, lens, rank)
	}
	return bytes
}

// ioFileSize is the size IMB_init_file gives the file of rank in a case:
// the longest length (2^MAXMSGLOG when it is 0) times MSGSPERSAMPLE, but
// at least that length and at most max(it, OVERALL_VOL); a private file
// gets its share plus some slack. It is raised to what the aggregate
// samples read if ever IMB's rule falls short (the reads must never hit
// the end of the file).
func ioFileSize(b *Benchmark, set *Settings, q int, lens []int, rank int) int64 {
	size := slices.Max(lens)
	if size == 0 {
		size = set.MaxMsg()
	}
	total := max(size, set.OverallVol)
	if set.OverallVol/size > set.MsgsPerSample {
		total = size * set.MsgsPerSample
	}
	if b.IO.perProcess(b.Class) && b.Class != SingleTransfer {
		total = (total + q - 1) / q
		if size%q != 0 {
			total += 4 * set.MsgsPerSample
		}
	}
	need := int64(0)
	for _, x := range lens {
		need = max(need, int64(set.Repetitions(x, Aggregate))*ioLayoutOf(b.IO, b.Class, rank, q, x).extent)
	}
	return max(int64(total), need)
}

// diskFull is the check after a write sample: a file system with less
// free than one more transfer step of the group (q·x bytes at most) may
// have lost writes that the MPI library did not report (Open MPI 4.1's
// MPI_File_write_all returns success on a full disk), and is near full
// anyway: the run ends there, on this process (the caller aborts the job).
func (c *ioCase) diskFull(x int) error {
	room := int64(c.q) * int64(max(x, 1))
	if full, free := diskcheck.Full(c.ioDir, room); full {
		return mpi.DiskFull(c.ioDir, c.path, free, room)
	}
	return nil
}

// CheckIODir is the -iodir check of the driver's prepare, for the disk
// check that must come after it and before the driver: every rank
// returns the same UsageError when one rank cannot create files there.
func CheckIODir(dir string) error {
	w := mpi.World()
	d := &Driver{world: w, rank: w.Rank()}
	return d.agreeLocal(checkIODir(dir))
}
