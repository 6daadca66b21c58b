package mpijob

import (
	"encoding/json"
	"errors"
	"fmt"

	"mpibench/mpi"
)

// Share is the one way mpibench lets rank 0 decide and every rank learn:
// decide runs on rank 0 only (it alone reads the command line, the
// journal, the results of -check), and its value, encoded as JSON,
// reaches every rank with MPI_Bcast. Every rank, rank 0 included, returns
// the decoded value, so that all run on the same one. An error is the
// same on every rank: a failed broadcast, or a value rank 0 could not
// encode.
func Share[T any](world mpi.Comm, decide func() T) (T, error) {
	var msg []byte
	var encErr error
	if world.Rank() == 0 {
		// An unencodable value goes out as an empty message, which no
		// rank can decode: every rank returns an error, none waits.
		msg, encErr = json.Marshal(decide())
		if encErr != nil {
			msg = nil
		}
	}
	var v T
	msg, err := world.BcastBytes(msg)
	switch {
	case err != nil:
		return v, err
	case encErr != nil:
		return v, fmt.Errorf("sharing rank 0's decision: %w", encErr)
	case len(msg) == 0:
		return v, errors.New("sharing rank 0's decision: rank 0 could not encode it")
	}
	if err := json.Unmarshal(msg, &v); err != nil {
		return v, fmt.Errorf("sharing rank 0's decision: %w", err)
	}
	return v, nil
}

// Speak runs write on rank 0 (the text and the records) and shares its
// error with every rank, so that a failed write stops all ranks together.
func Speak(world mpi.Comm, write func() error) error {
	msg, err := Share(world, func() string {
		if err := write(); err != nil {
			return err.Error()
		}
		return ""
	})
	if err == nil && msg != "" {
		err = fmt.Errorf("writing results: %s", msg)
	}
	return err
}
