//go:build !cgo || nompi

package mpi

// The kernels of b_eff, b_eff_io, PGMPI and SKaMPI without their C code:
// in the build without MPI (nompi.go), where Init fails before any is
// reached. They only have to compile.

// PgmpiCalls is the number of PGMPI calls of pgmpi.h; without the C
// header there are none.
const PgmpiCalls = PgmpiCall(0)

// The kernels of the suites outside the IMB family: empty.
type (
	BeffPattern struct{}
	BeffIOFile  struct{}
	PgmpiCase   struct{}
	SkampiCase  struct{}
)

func (c Comm) BeffTimes(t float64, bad int64) (tmax, tmin, tavg float64, defects int64, err error) {
	return 0, 0, 0, 0, ErrNoMPI
}
func (c Comm) SkampiBcastBytes(b []byte, root int) ([]byte, error) { return nil, ErrNoMPI }
func (c Comm) SkampiBcastFloat(x float64) (float64, error)         { return 0, ErrNoMPI }
func (c Comm) SkampiDecide(stop bool) (bool, error)                { return false, ErrNoMPI }
func (c Comm) SkampiFirst(p int) (Comm, error)                     { return Comm{}, ErrNoMPI }
func (c Comm) SkampiPair(a, b int) (Comm, error)                   { return Comm{}, ErrNoMPI }
func (c Comm) SkampiSurvey(reps int) ([]float64, error)            { return nil, ErrNoMPI }

func NewBeffPattern(c Comm, to, from []int, slot int) (*BeffPattern, error) { return nil, ErrNoMPI }
func (p *BeffPattern) Free()                                                {}
func (p *BeffPattern) SetLen(l int) error                                   { return ErrNoMPI }
func (r *BeffRun) Exec() (float64, int64, error)                            { return 0, 0, ErrNoMPI }

func BeffIOOpen(c Comm, self bool, name string, access int) (*BeffIOFile, float64, error) {
	return nil, 0, ErrNoMPI
}
func (f *BeffIOFile) Close() (float64, error)                    { return 0, ErrNoMPI }
func (f *BeffIOFile) Exec(p BeffIOPattern) (BeffIOResult, error) { return BeffIOResult{}, ErrNoMPI }
func (f *BeffIOFile) SetView(typ, n, rank, l int, disp int64) error {
	return ErrNoMPI
}

func NewPgmpiCase(c Comm, call PgmpiCall, count int, bcastIn bool) (*PgmpiCase, error) {
	return nil, ErrNoMPI
}
func (pc *PgmpiCase) Call() error                  { return ErrNoMPI }
func (pc *PgmpiCase) Free()                        {}
func (pc *PgmpiCase) Output() []int32              { return nil }
func (pc *PgmpiCase) Run(n int) ([]float64, error) { return nil, ErrNoMPI }

func NewSkampiCase(c Comm, op SkampiOp, maxLen, work int) (*SkampiCase, error) {
	return nil, ErrNoMPI
}
func (sc *SkampiCase) Free() error              { return nil }
func (sc *SkampiCase) Sample() (float64, error) { return 0, ErrNoMPI }
func (sc *SkampiCase) SetLen(n int) error       { return ErrNoMPI }
func (sc *SkampiCase) NoBarrier()               {}
func (sc *SkampiCase) Window(l *WinLoop) error  { return ErrNoMPI }
