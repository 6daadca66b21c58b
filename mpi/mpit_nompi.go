//go:build !cgo || nompi

package mpi

// The MPI-free build's control variables (mpit.go): there is no library
// to ask.

func ControlVars() ([]ControlVar, error)     { return nil, ErrNoMPI }
func ControlVarInt(name string) (int, error) { return 0, ErrNoMPI }
func LibraryFile() (string, error)           { return "", ErrNoMPI }
