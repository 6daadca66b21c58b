package mpijob

import (
	"os"
	"strings"
)

// LauncherRank is the rank the launcher gave this process before MPI is
// initialised: help is printed once, by rank 0 or by a process run alone.
func LauncherRank() string {
	for _, v := range []string{"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"} {
		if r := os.Getenv(v); r != "" {
			return r
		}
	}
	return "0"
}

func HasHelp(args []string) bool {
	for _, a := range args {
		switch strings.TrimLeft(a, "-") {
		case "h", "help":
			return strings.HasPrefix(a, "-")
		}
	}
	return false
}
