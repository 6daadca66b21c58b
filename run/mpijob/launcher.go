package mpijob

import (
	"fmt"
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

// launcherMismatch tells, from the environment alone and before MPI_Init,
// whether the process was started by the other library's launcher: an
// MPICH build under Open MPI's mpirun, or an Open MPI build under MPICH's
// Hydra (mpiexec.mpich). Either way each process would initialise as a
// job of its own and every one of them would complain that the job is too
// small. The marks are what each launcher sets and the other does not:
// Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; Hydra sets PMI_SIZE and
// MPI_LOCALNRANKS (Slurm's srun, which either library may use, sets
// neither of the pair and SLURM_PROCID besides, so it is never named).
// getenv is os.Getenv outside the tests.
func launcherMismatch(flavor string, getenv func(string) string) error {
	switch {
	case flavor == "mpich" && getenv("OMPI_COMM_WORLD_SIZE") != "" && getenv("PMI_SIZE") == "":
		return fmt.Errorf("this is the MPICH build of mpibench, started by Open MPI's launcher "+
			"(OMPI_COMM_WORLD_SIZE=%s): each process would run as a job of its own; start it with "+
			"MPICH's mpiexec (mpiexec.mpich), or use the Open MPI build (docs/build.md)",
			getenv("OMPI_COMM_WORLD_SIZE"))
	case flavor == "openmpi" && getenv("PMI_SIZE") != "" && getenv("MPI_LOCALNRANKS") != "" &&
		getenv("OMPI_COMM_WORLD_SIZE") == "" && getenv("PMIX_RANK") == "" && getenv("SLURM_PROCID") == "":
		return fmt.Errorf("this is the Open MPI build of mpibench, started by MPICH's launcher "+
			"(PMI_SIZE=%s): each process would run as a job of its own; start it with "+
			"Open MPI's mpirun (mpirun.openmpi), or use the MPICH build (docs/build.md)", getenv("PMI_SIZE"))
	}
	return nil
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
