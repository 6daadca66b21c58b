package guideline

import (
	"math/rand/v2"
	"strings"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
)

// SyntheticFunctions and SyntheticMockups are the calls Synthetic
// measures: every function and mock-up of the default guidelines.
var (
	SyntheticFunctions = []string{"MPI_Allgather", "MPI_Allreduce", "MPI_Alltoall", "MPI_Bcast", "MPI_Gather",
		"MPI_Reduce", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Scan", "MPI_Scatter"}
	SyntheticMockups = []string{"Gather_as_Allgather", "Gather_as_Reduce", "Allgather_as_Alltoall",
		"Allgather_as_Allreduce", "Scatter_as_Bcast", "Reduce_as_Allreduce", "Reduce_scatter_as_Allreduce",
		"Bcast_as_Scatter_Allgather", "Allgather_as_Gather_Bcast", "Allreduce_as_Reduce_Bcast",
		"Allreduce_as_Reduce_scatter_block_Allgather", "Reduce_as_Reduce_scatter_block_Gather",
		"Reduce_scatter_block_as_Reduce_Scatter", "Scan_as_Exscan_Reduce_local", "Reduce_scatter_as_Reduce_Scatterv"}
)

// Synthetic makes the records of a made-up machine: procs processes,
// launches launches, sizes 1, 2, 4, …, 1024 bytes, 20 repetitions each.
// A function takes 10 µs·(1 + 0.2·i) at the i-th size, so every step up
// costs 20 % more and splitting never pays; a mock-up takes 1.5 times its
// function. Launches scatter by 1 %, repetitions by 0.5 %, so no
// guideline is violated. With plant, three violations are built in:
//
//   - GL1: MPI_Bcast at 64 bytes is 1.3 times slower, slower than at 128;
//   - GL2: MPI_Allreduce at 1024 bytes is 4 times slower, slower than
//     2·T(512) and 4·T(256) (only 512 is to be reported); its mock-ups
//     are as much slower there, so GL12 and GL13 still hold;
//   - GL3: Gather_as_Allgather at 4 and 8 bytes takes 0.7 times MPI_Gather.
func Synthetic(procs, launches int, plant bool) []result.Record {
	rng := rand.New(rand.NewPCG(2016, uint64(procs)))
	var recs []result.Record
	for l := 1; l <= launches; l++ {
		for i := 0; i <= 10; i++ {
			n := 1 << i
			base := 10 * (1 + 0.2*float64(i))
			for _, f := range SyntheticFunctions {
				t := base * syntheticPlant(plant, f, n)
				recs = append(recs, syntheticRecord(rng, f, "function", procs, n, l, t))
			}
			for _, m := range SyntheticMockups {
				t := 1.5 * base * syntheticPlant(plant, m, n)
				recs = append(recs, syntheticRecord(rng, m, "mockup", procs, n, l, t))
			}
		}
	}
	return recs
}

func syntheticPlant(plant bool, call string, n int) float64 {
	switch {
	case !plant:
		return 1
	case call == "MPI_Bcast" && n == 64:
		return 1.3
	case (call == "MPI_Allreduce" || strings.HasPrefix(call, "Allreduce_as_")) && n == 1024:
		return 4
	case call == "Gather_as_Allgather" && (n == 4 || n == 8):
		return 0.7 / 1.5
	}
	return 1
}

func syntheticRecord(rng *rand.Rand, call, class string, procs, n, launch int, t float64) result.Record {
	median := t * (1 + 0.01*rng.NormFloat64())
	samples := make([]float64, 20)
	for i := range samples {
		samples[i] = median * (1 + 0.005*rng.NormFloat64())
	}
	s := stats.Summarize(samples)
	return result.Record{Suite: result.SuitePGMPI, Benchmark: call, Class: class, Multi: -1, Group: -1,
		NProcs: procs, Bytes: n, Reps: len(samples), Launch: launch, Samples: samples, Stats: &s}
}
