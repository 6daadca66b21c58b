package imb

import (
	"fmt"
	"path/filepath"

	"mpibench/mpi"
	"mpibench/suites/imb/kernel"
)

// ioCase runs one IMB-IO benchmark on one process count. The file is
// prepared once in setup (IMB_init_file), opened with its view for every
// length and mode and closed after it (IMB_init_transfer and
// IMB_close_transfer), and deleted in free.
type ioCase struct {
	*caseEnv
	spec       *IOSpec
	path       string   // "" on idle ranks
	fileComm   mpi.Comm // MPI_COMM_SELF for per-process files, else comm
	rank       int      // rank in comm: the buffer pattern and the block of P_ and C_
	send, recv mpi.Buffer
	save       mpi.Buffer // -check reads: every repetition's data
	file       mpi.File
	failed     bool // an MPI call failed: free must not call collectives
}

func newIOCase(env *caseEnv) runner {
	return &ioCase{caseEnv: env, spec: env.b.IO}
}

func (c *ioCase) perProcess() bool { return c.spec.perProcess(c.b.Class) }

// fileOwner: the process that creates, checks and deletes the file: rank 0
// of a shared file, every process of its own.
func (c *ioCase) fileOwner() bool { return c.perProcess() || c.rank == 0 }

func (c *ioCase) setup() error {
	err := c.setupFile()
	if err != nil {
		c.failed = true
	}
	return err
}

func (c *ioCase) setupFile() error {
	if c.comm.Null() {
		return nil
	}
	c.rank = c.comm.Rank()
	c.fileComm = c.comm
	if c.perProcess() {
		c.fileComm = mpi.FileSelf()
	}
	c.path = filepath.Join(c.ioDir, ioFileName(c.multi, c.group, c.perProcess(), mpi.World().Rank()))
	registerFile(c.path)
	if err := c.allocBuffers(); err != nil {
		return err
	}
	return c.prepareFile()
}

// layout places this rank's transfers of length x.
func (c *ioCase) layout(x int) ioLayout { return ioLayoutOf(c.spec, c.b.Class, c.rank, c.q, x) }

// allocBuffers sizes the buffers for the longest transfer. The write
// buffer holds this rank's BUF_VALUE pattern (section 5.2.5). In -check
// mode the loop keeps what every read of a sample delivered in save, so
// that all of them can be verified afterwards.
func (c *ioCase) allocBuffers() error {
	if c.spec.Access == IONone {
		return nil
	}
	most, saved := 0, 0
	for _, x := range c.lens {
		n := c.layout(x).n
		most = max(most, n)
		if c.check && !c.spec.Write {
			saved = max(saved, n*c.set.Repetitions(x, Aggregate))
		}
	}
	var err error
	if c.spec.Write {
		c.send, err = mpi.Alloc(most)
		fillIOPattern(c.send.Bytes(), c.rank, 0)
	} else {
		c.recv, err = mpi.Alloc(most)
	}
	if err == nil && saved > 0 {
		c.save, err = mpi.Alloc(saved)
	}
	return err
}

// prepareFile deletes the file if it exists, then creates it with IMB's
// size and, for the reads, fills it with rank 0's pattern (IMB_init_file):
// byte o of a read file is byte o of the BUF_VALUE(0, i) int array. Only
// the owner touches the file, through MPI-IO on MPI_COMM_SELF; the
// barriers keep the other processes from opening it meanwhile.
func (c *ioCase) prepareFile() error {
	if err := c.comm.Barrier(); err != nil {
		return err
	}
	if c.fileOwner() {
		if err := deleteIfExists(c.path); err != nil {
			return err
		}
		if c.spec.Access != IONone {
			if err := c.createFile(); err != nil {
				return fmt.Errorf("%s: %w", c.path, err)
			}
		}
	}
	return c.comm.Barrier()
}

func (c *ioCase) createFile() error {
	f, err := mpi.CreateFile(mpi.FileSelf(), c.path)
	if err != nil {
		return err
	}
	size := c.fileSize()
	err = f.SetByteView()
	if err == nil {
		err = f.SetSize(size)
	}
	if err == nil && !c.spec.Write && !c.check {
		// -check gives the file its content per length (writeImage).
		err = fillFile(&f, size)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// fillFile writes rank 0's pattern over the first size bytes in 1 MiB pieces.
func fillFile(f *mpi.File, size int64) error {
	buf := make([]byte, 1<<20)
	for off := int64(0); off < size; off += int64(len(buf)) {
		b := buf[:min(int64(len(buf)), size-off)]
		fillIOPattern(b, 0, off)
		if err := f.WriteAt(off, b); err != nil {
			return err
		}
	}
	return nil
}

// fileSize is the size of this rank's file (see ioFileSize).
func (c *ioCase) fileSize() int64 { return ioFileSize(c.b, c.set, c.q, c.lens, c.rank) }

func (c *ioCase) measure(x int, m Mode) (Sample, error) {
	if c.comm.Null() {
		return Sample{T: -1}, nil
	}
	s, err := c.measureActive(x, m)
	if err != nil {
		c.failed = true
	}
	return s, err
}

// measureActive runs one sample. A non-blocking benchmark (section
// 5.2.8.3) first runs its blocking equivalent for t_pure, closes and
// reopens the file, and runs the overlapped loop, which begins with the
// N_BARR barriers again, for t_ovrl.
func (c *ioCase) measureActive(x int, m Mode) (Sample, error) {
	reps := c.reps(x, m)
	if c.spec.Access == IONone {
		t, err := kernel.OpenCloseRun(c.comm, c.path, reps, c.set.NBarr)
		return Sample{T: t}, err
	}
	lay := c.layout(x)
	run := c.fileRun(lay, reps, m != NonAggregate)
	t, defects, err := c.sample(lay, run, false)
	if err == nil && c.spec.Write {
		err = c.diskFull(x)
	}
	if err != nil || m != NonBlocking {
		return Sample{T: t, Defects: defects}, err
	}
	tOvrl, more, err := c.sample(lay, run, true)
	if err == nil && c.spec.Write {
		err = c.diskFull(x)
	}
	return Sample{T: tOvrl, TPure: t, Defects: defects + more}, err
}

// fileRun describes the timed loop of one sample. Transfer j of this rank
// goes to file offset pos + j·extent: the explicit offsets say so, the
// view of _indv does, and the shared pointer does for C_ (ordered). In
// -check mode the same loop runs with this rank's check pattern.
func (c *ioCase) fileRun(lay ioLayout, reps int, aggregate bool) *kernel.FileRun {
	access := map[IOAccess]kernel.FileAccess{IOIndv: kernel.FileIndv, IOPriv: kernel.FileIndv,
		IOExpl: kernel.FileExpl, IOShared: kernel.FileShared}[c.spec.Access]
	r := &kernel.FileRun{File: &c.file, Comm: c.comm, Access: access, Collective: c.b.Class == Collective,
		Write: c.spec.Write, Aggregate: aggregate, Buf: c.send, Count: lay.n,
		Offset: lay.pos, Stride: lay.extent, Reps: reps, Barriers: c.set.NBarr,
		Check: c.check, Rank: c.rank, Save: c.save}
	if !c.spec.Write {
		r.Buf = c.recv
		if c.check {
			// a short read is left to the check, which counts the bytes missing
			r.ShortOK = true
		}
	}
	return r
}

// sample opens the file with its view, runs the loop (overlapped or not),
// verifies it in -check mode and closes the file.
func (c *ioCase) sample(lay ioLayout, run *kernel.FileRun, overlapped bool) (float64, int, error) {
	if c.check && !c.spec.Write {
		if err := c.writeImage(lay.x, run.Reps); err != nil {
			return 0, 0, err
		}
	}
	if err := c.open(lay); err != nil {
		return 0, 0, err
	}
	t, defects, err := c.runChecked(lay, run, overlapped)
	if mpi.EndsJob(err) {
		// This rank alone may have failed and MPI_File_close is
		// collective: the others may wait elsewhere. The job is aborted
		// and its cleanups remove the file.
		return t, defects, err
	}
	if cerr := c.file.Close(); err == nil {
		err = cerr
	}
	return t, defects, err
}

// open opens the file on its communicator with the view of section
// 5.2.3.4: disp 0, etype MPI_BYTE, "native", and as filetype the block
// type of P_ and C_ _indv or MPI_BYTE.
func (c *ioCase) open(lay ioLayout) error {
	f, err := mpi.OpenFile(c.fileComm, c.path)
	if err != nil {
		return fmt.Errorf("%s: %w", c.path, err)
	}
	c.file = f
	if c.spec.Access == IOIndv && !c.perProcess() {
		err = c.file.SetBlockView(lay.pos, lay.n, lay.extent)
	} else {
		err = c.file.SetByteView()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", c.path, err)
	}
	return nil
}

// runChecked runs the loop. In -check mode a write starts from an empty
// file (the loop poisons a read's buffer before every transfer), so that
// data a transfer failed to move cannot pass for correct data, and the
// outcome is verified.
func (c *ioCase) runChecked(lay ioLayout, run *kernel.FileRun, overlapped bool) (float64, int, error) {
	if c.check && c.spec.Write {
		if err := c.file.SetSize(0); err != nil {
			return 0, 0, err
		}
	}
	exec := run.Exec
	if overlapped {
		exec = run.ExecOverlapped
	}
	t, err := exec()
	if err != nil || !c.check {
		return t, 0, err
	}
	defects, err := c.verify(lay.x, run.Reps)
	return t, defects, err
}

// free deletes the file: its owner opens it with MPI_MODE_DELETE_ON_CLOSE
// once every process is done with it. After a failed MPI call the other
// processes may be anywhere, so the file is then removed without MPI.
func (c *ioCase) free() error {
	defer c.send.Free()
	defer c.recv.Free()
	defer c.save.Free()
	if c.path == "" {
		return nil
	}
	if c.failed {
		removeWithHelpers(c.path)
		unregisterFile(c.path)
		return nil
	}
	if err := c.comm.Barrier(); err != nil {
		return err
	}
	if c.fileOwner() {
		if err := deleteIfExists(c.path); err != nil {
			return err
		}
	}
	unregisterFile(c.path)
	return nil
}
