package imb

import (
	"math"
	"strconv"
	"strings"

	"mpibench/suites/imb/kernel"
)

// Types2021 are IMB-MPI1 2021.11's -off_cache, -data_type and
// -red_data_type (src_cpp/MPI1/MPI1_suite.cpp, declare_args and prepare),
// with their names, values and meanings:
//   - -data_type byte|char|int|float|double: the MPI datatype of every
//     benchmark but the reductions (default byte, MPI_BYTE); lengths are
//     rounded up to whole items (helper_IMB_functions.h,
//     helper_init_scope: the unit is the type's size), counts are
//     bytes / size;
//   - -red_data_type char|int|float|double: the datatype of Reduce,
//     Reduce_scatter, Allreduce, Reduce_local and Reduce_scatter_block
//     (default float), always with MPI_SUM (MPI1_suite.cpp: get_op is
//     used only with -contig_type);
//   - -off_cache SIZE[,LINE]: every repetition sends from and receives
//     into other memory (offcache.go).
//
// IMB 2021.11 has float16 and bfloat16 too where the library defines
// MPIX_C_FLOAT16 or MPIX_C_BF16: Open MPI 4.1 has neither and MPICH 4.0's
// IMB fails an assertion with them, so mpibench refuses them. An unknown
// type IMB replaces by the default with a warning; mpibench refuses it.
type Types2021 struct {
	// OffCache is -off_cache as given; CacheMB and CacheLine its
	// meaning, CacheMB > 0 when it is on.
	OffCache  string  `json:"off_cache,omitempty"`
	CacheMB   float32 `json:"cache_mb,omitempty"`
	CacheLine int     `json:"cache_line,omitempty"`
	// Data and Red are -data_type and -red_data_type; 0: not given.
	Data kernel.DataType `json:"data_type,omitempty"`
	Red  kernel.DataType `json:"red_data_type,omitempty"`
}

// IMB 2021.11's -off_cache defaults (IMB_mem_info.h): CACHE_SIZE 8 units
// of CACHE_UNIT = 2^20 bytes for -off_cache -1, and a CACHE_LINE_SIZE of
// 64 bytes when no line size is given.
const (
	cacheUnit        = 1 << 20
	defaultCacheMB   = 8
	defaultCacheLine = 64
)

func (t *Types2021) set(name, val string) error {
	if name == "off_cache" {
		return t.setOffCache(val)
	}
	typ, ok := kernel.ParseDataType(val)
	switch {
	case val == "float16" || val == "bfloat16":
		return usagef("-%s %s: IMB 2021.11 has it only where the MPI library defines MPIX_C_FLOAT16 or "+
			"MPIX_C_BF16 (Open MPI 4.1 does not; MPICH 4.0's IMB fails an assertion with it); mpibench does not run it", name, val)
	case !ok, name == "red_data_type" && typ == kernel.TypeByte:
		want := map[string]string{"data_type": "byte, char, int, float or double",
			"red_data_type": "char, int, float or double (MPI_SUM has no MPI_BYTE)"}[name]
		return usagef("-%s %q: want %s", name, val, want)
	case name == "data_type":
		t.Data = typ
	default:
		t.Red = typ
	}
	return nil
}

// setOffCache reads -off_cache as IMB 2021.11 does (MPI1_suite.cpp,
// prepare): one value is the size in MB with a 64-byte line, -1 (any
// negative size) the defaults 8 MB and 64; two values are size and line,
// the line a whole number. A size of 0 leaves the buffers as they are
// (IMB: off_cache = cache_size > 0). Where IMB goes wrong, mpibench
// refuses: a line below 1 (IMB divides by it) and a negative size with a
// line (IMB then silently runs without -off_cache).
func (t *Types2021) setOffCache(val string) error {
	bad := func(why string) error {
		return usagef("-off_cache %q: %s; want cache_size[,cache_line_size]: the last level cache in MB "+
			"and its line in bytes, e.g. -off_cache 16,128, or -off_cache -1 for IMB's 8 MB and 64 bytes", val, why)
	}
	parts := strings.Split(val, ",")
	if len(parts) > 2 {
		return bad("more than two values")
	}
	mb, err := strconv.ParseFloat(parts[0], 32)
	if err != nil || math.IsNaN(mb) || math.IsInf(mb, 0) || mb > 1<<20 {
		return bad("the size is not a number of MB up to 2^20")
	}
	t.OffCache, t.CacheMB, t.CacheLine = val, float32(mb), defaultCacheLine
	if len(parts) == 1 {
		if mb < 0 {
			t.CacheMB = defaultCacheMB
		}
		return nil
	}
	line, err := strconv.Atoi(parts[1])
	switch {
	case err != nil || line < 1 || line > cacheUnit:
		return bad("the line size is not a whole number of bytes from 1 to 2^20")
	case mb < 0:
		return bad("a negative size takes no line size (IMB 2021.11 would run without -off_cache)")
	}
	t.CacheLine = line
	return nil
}

// check refuses the flags in the suites that do not have them here: IMB
// 2021.11 has -data_type and -red_data_type in IMB-MPI1 only, and honours
// -off_cache in IMB-MPI1, IMB-EXT, IMB-NBC, IMB-RMA and IMB-MPI4, and so
// does mpibench in mpi1, ext -imb 2021 (imb is -imb), nbc, rma and mpi4
// (offcache.go); IMB 3.0's IMB-EXT has no -off_cache. IMB-IO 2021.11
// takes it and ignores it (IO_suite.cpp parses it;
// helper_IMB_functions.h, IMB_init_buffers_iter, sets use_off_cache = 0
// and allocates s_len and r_len under MPIIO), and so does mpibench io:
// the records carry it, the loops do not change.
func (t *Types2021) check(s *Suite, imb string) error {
	if s == MPI1Suite {
		return nil
	}
	if s == NBCSuite || s == MPI4Suite || s == IOSuite || s == RMASuite || s == EXTSuite && imb == imb2021 {
		t = &Types2021{Data: t.Data, Red: t.Red} // -off_cache taken
	}
	switch {
	case t.Data != kernel.TypeDefault:
		return usagef("-data_type is a flag of mpibench mpi1 only (as of IMB-MPI1 2021.11)")
	case t.Red != kernel.TypeDefault:
		return usagef("-red_data_type is a flag of mpibench mpi1 only (as of IMB-MPI1 2021.11)")
	case t.OffCache != "" && s == EXTSuite:
		return usagef("-off_cache %s: a flag of IMB-EXT 2021 (IMB 3.0 has none); add -imb 2021", t.OffCache)
	case t.OffCache != "":
		return usagef("-off_cache is a flag of mpibench mpi1, ext -imb 2021, nbc, rma, mpi4 and io")
	}
	return nil
}

// checkWindow refuses the flags with -sync window (sync): the window
// loops (mpi/window.c) call MPI with the buffers' first bytes and
// MPI_BYTE or MPI_FLOAT items, not the slots and types of these flags.
func (t *Types2021) checkWindow(sync string) error {
	if sync != syncWindow {
		return nil
	}
	for name, given := range map[string]bool{"off_cache": t.OffCache != "", "data_type": t.Data != kernel.TypeDefault,
		"red_data_type": t.Red != kernel.TypeDefault} {
		if given {
			return usagef("-%s with -sync window: the window loop keeps IMB's default buffers and types; "+
				"leave out one of them", name)
		}
	}
	return nil
}

// options adds the flags given to a record's context options, as given.
func (t *Types2021) options(m map[string]string) {
	if t.OffCache != "" {
		m["off_cache"] = t.OffCache
	}
	if t.Data != kernel.TypeDefault {
		m["data_type"] = t.Data.String()
	}
	if t.Red != kernel.TypeDefault {
		m["red_data_type"] = t.Red.String()
	}
}

// typed is b with the item type the flags give it: -red_data_type for the
// reductions, -data_type for the others (not Barrier). The table's entry
// stays as it is.
func (t *Types2021) typed(b *Benchmark) *Benchmark {
	typ := t.Data
	if b.Reduction {
		typ = t.Red
	}
	if typ == kernel.TypeDefault || b.NoBytes {
		return b
	}
	c := *b
	c.Type = typ
	return &c
}

// lookup is s.Lookup(name) with the item type of the flags (mpi1).
func (f *Flags2021) lookup(s *Suite, name string) *Benchmark {
	b, _ := s.Lookup(name)
	if s != MPI1Suite {
		return b
	}
	return f.Types.typed(b)
}

// offCacheUsage is the help of -off_cache (mpi1, ext -imb 2021, nbc, rma,
// mpi4).
const offCacheUsage = `  -off_cache SIZE[,LINE]  every repetition sends from and receives into
                other memory: slots of the message length plus one to two
                cache lines, through 2*SIZE MB (SIZE: the last level cache in
                MB, LINE its line in bytes, default 64; -1: 8 MB, 64 bytes);
                mpi4's persistent requests stay at the first slot, as IMB's;
                ext (-imb 2021 only) and rma: the window covers every slot
`

// typesUsage is the help of the flags.
const typesUsage = offCacheUsage + `  -data_type byte|char|int|float|double  the type of the non-reductions'
                messages (default byte); lengths are whole items
  -red_data_type char|int|float|double  the type of the reductions, with
                MPI_SUM (default float)
`
