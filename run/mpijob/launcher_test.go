package mpijob

import (
	"strings"
	"testing"
)

func TestLauncherMismatch(t *testing.T) {
	ompi := map[string]string{"OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_RANK": "0", "PMIX_RANK": "0"}
	hydra := map[string]string{"PMI_SIZE": "2", "PMI_RANK": "0", "MPI_LOCALNRANKS": "2"}
	srun := map[string]string{"PMI_SIZE": "2", "PMI_RANK": "0", "SLURM_PROCID": "0"}
	for _, c := range []struct {
		flavor string
		env    map[string]string
		want   string // "" for no mismatch
	}{
		{"openmpi", ompi, ""},
		{"mpich", hydra, ""},
		{"mpich", ompi, "MPICH build of mpibench, started by Open MPI's launcher (OMPI_COMM_WORLD_SIZE=2)"},
		{"openmpi", hydra, "Open MPI build of mpibench, started by MPICH's launcher (PMI_SIZE=2)"},
		{"openmpi", srun, ""},
		{"mpich", srun, ""},
		{"openmpi", nil, ""}, // run alone: a singleton
		{"mpich", nil, ""},
		{"none", ompi, ""},
	} {
		err := launcherMismatch(c.flavor, func(k string) string { return c.env[k] })
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s build, env %v: want no mismatch, got %v", c.flavor, c.env, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s build, env %v: want %q, got %v", c.flavor, c.env, c.want, err)
		}
	}
}
