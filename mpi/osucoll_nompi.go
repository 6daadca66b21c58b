//go:build !cgo || nompi || imbonly

package mpi

// The OSU collective loops without MPI: never reached (Init fails first).

func (r *OSUColl) Exec(check bool) (OSUCollTimes, error) { return OSUCollTimes{}, ErrNoMPI }
func OSUCompute(seconds float64)                         {}
