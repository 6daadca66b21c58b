package mpijob

import (
	"fmt"

	"mpibench/mpi"
)

// Speak runs fn on rank 0 of world (a write of the text output) and
// shares its error with every rank, so that a failed write stops all
// ranks together.
func Speak(world mpi.Comm, fn func() error) error {
	msg, err := Share(world, func() string {
		if err := fn(); err != nil {
			return err.Error()
		}
		return ""
	})
	if err == nil && msg != "" {
		err = fmt.Errorf("writing results: %s", msg)
	}
	return err
}
