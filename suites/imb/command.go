package imb

import (
	"fmt"

	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/run/memcheck"
	"mpibench/run/mpijob"
	"mpibench/suites/imb/imbtext"
)

// Command is the suite as mpibench's registry knows it: mpibench mpi1,
// ext or io, with its help, its rows of `mpibench list`, and its run
// under MPI.
func (s *Suite) Command() mpijob.Entry {
	c := mpijob.Command[*Config]{
		Name: s.Name,
		Help: s.usage,
		Parse: func(args []string, size int, _ bool) (*Config, string, error) {
			opts, err := ParseArgs(args)
			if err != nil {
				return nil, "", err
			}
			cfg, err := Resolve(s, opts, size, args)
			if err != nil {
				return nil, "", err
			}
			return cfg, cfg.JSON, nil
		},
		Run: s.measure,
	}
	summary := map[string]string{result.SuiteMPI1: "run IMB-MPI1 benchmarks",
		result.SuiteEXT: "run IMB-EXT (one-sided) benchmarks", result.SuiteIO: "run IMB-IO (MPI-IO) benchmarks",
		result.SuiteNBC:  "run IMB-NBC (non-blocking collectives, IMB 2021)",
		result.SuiteMPI4: "run IMB-MPI4 (persistent collectives, IMB 2021)",
		result.SuiteRMA:  rmaSummary}
	e := c.Entry(s.Name+" [Benchmark ...] [flags]", summary[s.Name])
	e.List = s.listing
	return e
}

// title is the suite's name in IMB's documents.
func (s *Suite) title() string {
	return map[string]string{result.SuiteMPI1: "IMB-MPI1", result.SuiteEXT: "IMB-EXT (MPI-2 one-sided)",
		result.SuiteIO: "IMB-IO (MPI-IO)", result.SuiteNBC: "IMB-NBC",
		result.SuiteMPI4: "IMB-MPI4", result.SuiteRMA: "IMB-RMA"}[s.Name]
}

// listing is the suite's rows of `mpibench list`: every benchmark, its
// class, datatype and the MPI calls it is based on.
func (s *Suite) listing() mpijob.Listing {
	l := mpijob.Listing{Header: []string{"suite", "benchmark", "class", "datatype", "based on"},
		Note: "Every benchmark of mpi1, ext and io also has a Multi- version (-multi 0|1): disjoint groups run it at once."}
	for _, b := range s.Table {
		l.Rows = append(l.Rows, []string{s.Name, b.Name, b.Class.Title(), b.Datatype(), b.Calls})
	}
	return l
}

// measure runs the benchmarks of cfg and prints their tables.
func (s *Suite) measure(cfg *Config, env *mpijob.Env) int {
	if cfg.List {
		return s.printList(cfg, env)
	}
	// Lengths that do not fit the node's memory are left out, each a
	// line and a record; only a benchmark whose smallest length does not
	// fit stops the run here (memory.go).
	avail, err := memcheck.Available(env.World)
	if err != nil {
		return env.Fail(err)
	}
	cfg.avail = avail
	if code, ok := mpijob.CheckAvailable(env, MemoryNeed(cfg, env.World.Size()), avail, 0); !ok {
		return code
	}
	if s == IOSuite {
		if code, ok := checkIODisk(cfg, env); !ok {
			return code
		}
		mpijob.OnInterrupt(RemoveFiles)
	}
	var out *Output
	if env.World.Rank() == 0 {
		out = &Output{Text: imbtext.NewIMBText(env.Stdout)}
	}
	env.ResumeNote(false)
	bad, err := NewDriver(cfg, env.Ctx, out, env.Cases).Run()
	if cli.IsUsage(err) {
		// Every rank has it, each with its own message.
		_, _ = fmt.Fprintf(env.Stderr, "mpibench %s: %v\n", s.Name, err)
		return 2
	}
	if err != nil {
		return env.Fail(err)
	}
	return mpijob.CheckCode(env.World, "-check", bad)
}

// checkIODisk refuses an IMB-IO run whose files may need more than the
// file system of -iodir has free or than -disk allows, after the check
// that every rank can create files there (which names a missing or
// unwritable directory).
func checkIODisk(cfg *Config, env *mpijob.Env) (code int, ok bool) {
	if err := CheckIODir(cfg.IODir); err != nil {
		if cli.IsUsage(err) {
			_, _ = fmt.Fprintf(env.Stderr, "mpibench %s: %v\n", env.Name, err)
			return 2, false
		}
		return env.Fail(err), false
	}
	return mpijob.CheckDisk(env, cfg.IODir, cfg.Disk, func(int64) (string, int64) {
		return IODiskNeed(cfg, env.World.Size())
	})
}

// usage is the help of the suite.
func (s *Suite) usage() string {
	u := fmt.Sprintf(`Usage: mpirun -np P mpibench %s [Benchmark ...] [flags]

Runs the %s 3.0 benchmarks (all of them when none is named; names are
case-insensitive). Flags and names may come in any order.

  -npmin N      run on N, 2N, 4N, ... (largest 2^x*N < P), P processes (default %d)
  -multi 0|1    Multi- versions: disjoint groups run simultaneously;
                0 reports the worst group, 1 reports every group
  -input FILE   benchmark names, one per line; lines starting with # are comments
  -msglen FILE  lengths in bytes, one per line (replaces 0,1,2,...,%d)
  -map PxQ      number the P*Q processes along the rows of a P x Q matrix
  -check        results checking: verify every received buffer, add a defects
                column; timings are then not valid benchmark data
  -json FILE    write every table row as a JSON Lines record to FILE (-o FILE
                is the same flag)
  -time S|off   at most about S seconds per sample (IMB 2021's -time): a
                sample whose IMB 3.0 repetition count would take longer runs
                fewer repetitions, estimated before it (default %g; off:
                IMB 3.0's counts, unbounded)
`, s.Name, s.title(), s.NPMin, s.Settings.MaxMsg(), DefaultTimeLimit[s.Name])
	if s == IOSuite {
		u += ioUsage
	}
	if s == MPI1Suite {
		u += mpi1Usage
	}
	if s != IOSuite {
		u += flags2021Usage(s)
	}
	if s == MPI1Suite {
		u += imb2021Usage + typesUsage
	}
	if s == EXTSuite || s == RMASuite {
		u += aggrModeUsage
	}
	if s == EXTSuite {
		u += ext2021Usage
	}
	u += imbFlagsUsage
	if s == MPI1Suite || s == NBCSuite {
		u += windowUsage
	}
	if s == NBCSuite || s == MPI4Suite || s == EXTSuite || s == RMASuite {
		u += offCacheUsage
	}
	if s == NBCSuite || s == MPI4Suite {
		u = nbcUsage(u, s.title())
	}
	if s == RMASuite {
		u = rmaUsage(u)
	}
	return u + `  -h            this help

Exit codes: 0 ok, 1 run-time failure, 2 bad input, 3 -check found defects,
4 a case hung (watchdog), 130/143 interrupted by SIGINT/SIGTERM.
`
}

const ioUsage = `  -iodir DIR    directory of the benchmark files (default: the current one);
                every file is removed after its benchmark
  -disk SIZE    most bytes of files at once, e.g. 500M, 2G (K, M, G, T, P:
                powers of 1024; default: min(16G, half the free space));
                a run that may need more, or more than the file system
                has free, is refused before anything is written (exit 2)
`
