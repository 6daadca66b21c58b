package imb

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"mpibench/suites/imb/kernel"
)

// -imb_barrier and -mem, two flags that every program of Intel MPI
// Benchmarks 2021.11 has (IMB-MPI1, -EXT, -IO, -NBC, -MPI4, -RMA;
// src_cpp/*/*_suite.cpp, declare_args), with IMB's names and meanings.
//
// -imb_barrier on|off (default off): with on, the barriers IMB runs
// through IMB_do_n_barriers (IMB_declare.h) are IMB's own IMB_Barrier
// (IMB_utils.c) rather than MPI_Barrier: the N_BARR barriers before the
// timing and the -sync barriers after every call of the collectives of
// IMB-MPI1 (IMB_allreduce.c, IMB_bcast.c, ..., and the pre-timing ones of
// IMB_barrier.c, whose timed loop stays MPI_Barrier), and of every
// benchmark of IMB-NBC and IMB-MPI4. IMB's point-to-point, EXT, IO and RMA
// kernels call MPI_Barrier directly, so there the flag is recorded and
// changes nothing, as in IMB. The barrier is kernel/imbbarrier.c.
//
// -mem GB (default 1): the most memory, in GiB (IMB's MEM_UNIT = 2^30
// bytes), one process may use for the message buffers of one sample. A
// sample that needs more (IMB_mem_manager.c, IMB_init_buffers_iter:
// (s_alloc + r_alloc)/MEM_UNIT > max_mem) is not run; IMB prints an
// "out-of-mem." line in its place and goes on with the next one. mpibench
// applies IMB's default under IMB 2021's definitions (context.imb "2021":
// -imb 2021, nbc, mpi4, rma), and no bound in an IMB 3.0 run without -mem,
// which IMB 3.0 does not have. The need is IMB's (imbBufferBytes);
// mpibench drops such lengths from the case before it allocates, prints
// IMB's line at each one's place in every mode's table, as IMB does, and
// writes a record that says so (skipped "memory", memory.go).

// setIMBFlag reads -imb_barrier and -mem.
func (f *Flags2021) setIMBFlag(name, val string) error {
	if name == "imb_barrier" {
		if val != "on" && val != "off" {
			return usagef("-imb_barrier %q: want on (IMB's own barrier) or off (MPI_Barrier)", val)
		}
		f.IMBBarrier = val
		return nil
	}
	gb, err := strconv.ParseFloat(val, 64)
	if err != nil || math.IsNaN(gb) || math.IsInf(gb, 0) || gb <= 0 {
		return usagef("-mem %q: want the GBytes of message buffers per process, a positive number, e.g. -mem 2.5", val)
	}
	f.Mem = val
	return nil
}

// checkIMBFlags: every IMB suite has both flags; nothing to refuse.
func (f *Flags2021) checkIMBFlags(*Suite) error { return nil }

// setBarrier sets -imb_barrier on a kernel call.
func (f *Flags2021) setBarrier(r *kernel.Run) { r.IMBBarrier = f.IMBBarrier == "on" }

// memLimit is the -mem bound in bytes for a run of suite s, 0 for none.
func (f *Flags2021) memLimit(s *Suite) float64 {
	if f.Mem == "" && f.version(s) != imb2021 {
		return 0
	}
	gb := 1.0 // IMB 2021.11's default (src_cpp/*/*_suite.cpp: add<float>("mem", 1.0f))
	if f.Mem != "" {
		gb, _ = strconv.ParseFloat(f.Mem, 64)
	}
	return gb * (1 << 30)
}

// imbBufferBytes is s_alloc + r_alloc of IMB 2021.11 (IMB_mem_manager.c,
// IMB_init_buffers_iter, without -off_cache) for benchmark name at x bytes
// on q processes: init = max(x, 4) (sizeof(assign_type)); q·init for both
// buffers of the Alltoall family; init and q·init for the (All)gather
// family; q·init and init for Scatter; 2·init and init for Exchange;
// nothing for Barrier and Open_Close; 2·init each for IMB-RMA's
// Exchange_put and Exchange_get, init and 3·init for its Compare_and_swap;
// init each otherwise. The families include IMB-NBC's I-names and
// IMB-MPI4's _persist names, with or without _pure.
func imbBufferBytes(name string, x, q int) float64 {
	send, recv := imbBuffers(name, x, q)
	return send + recv
}

// imbBuffers are imbBufferBytes's s_len and r_len.
func imbBuffers(name string, x, q int) (send, recv float64) {
	init := float64(max(x, 4))
	base := strings.TrimSuffix(strings.TrimSuffix(name, "_pure"), "_persist")
	if len(base) > 1 && base[0] == 'I' && unicode.IsLower(rune(base[1])) { // IMB-NBC's Iallgather
		base = strings.ToUpper(base[1:2]) + base[2:]
	}
	n := float64(q)
	switch base {
	case "Alltoall", "Alltoallv":
		return n * init, n * init
	case "Allgather", "Allgatherv", "Gather", "Gatherv":
		return init, n * init
	case "Scatter", "Scatterv":
		return n * init, init
	}
	switch name {
	case "Exchange":
		return 2 * init, init
	case "Barrier", "Open_Close":
		return 0, 0
	case "Exchange_put", "Exchange_get":
		return 2 * init, 2 * init
	case "Compare_and_swap":
		return init, 3 * init
	}
	return init, init
}

// memNeed is IMB 2021.11's used_mem of b at x bytes on q processes in
// bytes: s_alloc + r_alloc, each max(s_len, iter·offs) under -off_cache
// (helper_IMB_functions.h, IMB_init_buffers_iter, steps 3 and 4), with
// iter from the largest repetition count of b's modes; IMB-IO and the
// benchmarks without a length (IMB's Sync type) have no slots.
func (f *Flags2021) memNeed(s *Suite, set *Settings, b *Benchmark, x, q int) float64 {
	send, recv := imbBuffers(b.Name, x, q)
	if f.Types.CacheMB <= 0 || b.NoBytes || s == IOSuite {
		return send + recv
	}
	n := 0
	for _, m := range f.runModes(b) {
		n = max(n, f.reps2021(set, b, x, m, q))
	}
	alloc := func(l float64) float64 {
		iter, offs := f.Types.cacheSlots(int(l), n)
		return max(l, float64(iter)*float64(offs))
	}
	return alloc(send) + alloc(recv)
}

// outOfMem is IMB's line for a sample not run for -mem (IMB_output.c,
// SAMPLE_FAILED_MEMORY): the length, then the GBytes it needs rounded as
// IMB rounds them.
func outOfMem(need float64, x int) string {
	gb := float32(need / (1 << 30))
	return fmt.Sprintf("%13d out-of-mem.; needed X=%8.3f GB; use flag \"-mem X\" or MAX_MEM_USAGE>=X (IMB_mem_info.h)",
		x, (1000*gb+1)/1000)
}

// imbFlagsUsage is the help of -imb_barrier and -mem.
const imbFlagsUsage = `  -imb_barrier on|off  on: IMB's own barrier (MPI_Sendrecv rounds) where IMB
                runs its barrier: before and (-sync) after the collectives'
                calls; EXT, IO and RMA use MPI_Barrier as IMB does (default off)
  -mem GB       skip, with IMB's "out-of-mem." line, a sample whose message
                buffers need more than GB GiB per process (default 1 under
                IMB 2021's definitions, else no bound)
`

// ext2021Usage is ext's help of -imb.
const ext2021Usage = `  -imb 3|2021   2021: IMB-EXT 2021.11's definitions (every transfer at
                offset 0, Window with the non-aggregate count, Accumulate's
                fences, MB = 10^6); records' context.imb says which (default 3)
`
