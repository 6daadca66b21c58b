//go:build !cgo || nompi

package mpi

// The OSU collective loops without MPI: never reached (Init fails first).

func (r *OSURun) Exec(check bool) (OSUTimes, error) { return OSUTimes{}, ErrNoMPI }
func OSUCompute(seconds float64)                    {}
