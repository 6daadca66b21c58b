package beffio

import (
	"fmt"
	"strconv"

	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/run/diskcheck"
)

// DefaultT is the default scheduled time: 15 minutes, the paper's
// minimum for a valid b_eff_io of one partition.
const DefaultT = 900

// MaxT bounds -T: 10^6 seconds (11.6 days). The schedule and the
// watchdog's limits are time.Durations, which end at 292 years.
const MaxT = 1e6

// MaxMemMB bounds -mem: 1 TiB per process, in MB. M_PART stops growing at
// 128 GiB (see MPart); the bound keeps mem·2^20 far from int64's end.
const MaxMemMB = 1 << 20

// Options is the command line of mpibench beffio.
type Options struct {
	Mem        int     `json:"mem_mb,omitempty"` // MB (2^20) per process; 0: physical memory / processes on the host
	T          float64 `json:"t_sec"`            // scheduled time of all partitions
	IODir      string  `json:"iodir"`
	Partitions []int   `json:"partitions,omitempty"` // partition sizes; none: all processes
	Disk       int64   `json:"disk_bytes,omitempty"` // -disk: most bytes of files at once; 0: min(16 GiB, free/2)
	JSON       string  `json:"json,omitempty"`
	Prefix     string  `json:"prefix,omitempty"` // file name prefix, chosen by rank 0
	Help       bool    `json:"-"`
}

// UsageError is a bad command line: exit code 2.
type UsageError = cli.UsageError

// Usagef makes a UsageError.
func Usagef(format string, a ...any) error { return cli.Usagef(format, a...) }

// ParseArgs reads the flags of mpibench beffio.
func ParseArgs(args []string) (Options, error) {
	o := Options{T: DefaultT, IODir: "."}
	fs := cli.NewFlags(result.SuiteBeffIO)
	fs.Func("mem", "", memFlag(&o.Mem))
	fs.Func("T", "", cli.Seconds(&o.T, MaxT, "", 0))
	fs.Func("partitions", "", cli.Procs(&o.Partitions))
	fs.Func("disk", "", diskcheck.Flag(&o.Disk))
	fs.StringVar(&o.IODir, "iodir", ".", "")
	cli.Results(fs, &o.JSON)
	if err := cli.Parse(fs, args, &o.Help, "b_eff_io"); err != nil {
		return o, err
	}
	if o.IODir == "" {
		return o, Usagef("-iodir: empty directory name")
	}
	return o, nil
}

// memFlag reads -mem: a whole number of MB per process, 1 to MaxMemMB.
func memFlag(dst *int) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxMemMB {
			return fmt.Errorf("want a whole number of MB per process, 1 to %d (1 TiB)", MaxMemMB)
		}
		*dst = n
		return nil
	}
}

// Usage is the help of mpibench beffio.
const Usage = `Usage: mpirun -np P mpibench beffio [flags]

Measures the effective I/O bandwidth b_eff_io with MPI-IO: the 43 patterns
of Table 2 of Rabenseifner and Koniges in five pattern types (0 scatter:
strided, non-contiguous file view, collective; 1 shared: shared file
pointer, MPI_File_write_ordered; 2 separated: one file per process; 3
segmented: one file, a segment per process; 4 seg_coll: 3 with collective
calls), each written, rewritten and read. Types 0-2 repeat each pattern for
T*U/64/3 seconds in the initial write (or up to the -disk bound); type 3 and
4 and the rewrite and read repeat the counts measured then, as the original
does. The read checks the marks every write puts at both ends of every
chunk (exit 3 when one is wrong). b_eff_io of a partition = 25 % write +
25 % rewrite + 50 % read, each the average over the types with type 0
counted twice; b_eff_io of the system is the maximum over the partitions.

  -mem MB            memory per process in MB (2^20 bytes), at most 1048576;
                     M_PART = max(2 MB, min(mem, 128 GiB)/128), so that
                     a chunk stays below 2 GiB (default: physical
                     memory / processes on this host)
  -T SECONDS         scheduled time of all partitions together, at most
                     1000000 (default 900; the paper asks for at least 900
                     for a valid result)
  -iodir DIR         directory of the benchmark files (default: the current
                     one); every file is removed at the end, after an error
                     or on SIGINT/SIGTERM
  -disk SIZE         most bytes of benchmark files at once, e.g. 500M, 20G
                     (K, M, G, T, P: powers of 1024; default: min(16G, half
                     the free space of -iodir)); each time-driven pattern
                     also stops at its share of it. A run whose files may
                     need more than the file system has free is refused
                     before anything is written (exit 2)
  -partitions N,...  partition sizes, each run on ranks 0..N-1 (default: P)
  -json FILE         write every pattern, every type total and the summary
                     as JSON Lines records to FILE (-o FILE is the same flag)
  -h                 this help

Exit codes: 0 ok, 1 run-time failure (a failed or short MPI-IO transfer, a
full file system: the job ends, the files are removed), 2 bad input or too
little disk space, 3 the data check found wrong data, 130/143 interrupted.
`
