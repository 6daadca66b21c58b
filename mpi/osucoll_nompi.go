//go:build !cgo || nompi

package mpi

// The OSU collective loops without MPI: never reached (Init fails first).

func (r *OSUColl) Exec(check bool) (OSUCollTimes, error) { return OSUCollTimes{}, ErrNoMPI }
func OSUCompute(seconds float64)                         {}
