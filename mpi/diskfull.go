package mpi

import "fmt"

// DiskFull is the error of a file system found with less than room bytes
// free while a benchmark writes file in dir: a write may have been lost
// although the MPI library reported none (Open MPI 4.1's
// MPI_File_write_all returns MPI_SUCCESS and the full count on a full file
// system). It is this process's own finding: the job must be aborted.
func DiskFull(dir, file string, free, room int64) error {
	return &LocalError{Err: fmt.Errorf("the file system of %s has %d bytes free while writing %s, less than "+
		"the %d bytes of one more transfer: the run stops before the disk is full (a write may already have "+
		"failed without an error from the MPI library)", dir, free, file, room)}
}
