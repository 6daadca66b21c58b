package imb

import (
	"testing"
)

// TestIMB2021HeaderZeroSize: with -zero_size off the header's minimum is
// 2^min_msg_log, as IMB-MPI1 2021.11 prints it (MPI1_suite.cpp): the
// header lines, values aside, and the rows match Intel's (sideBySideIMB).
func TestIMB2021HeaderZeroSize(t *testing.T) {
	sideBySideIMB(t, []string{"-iter_policy", "off", "-iter", "5", "-zero_size", "off", "-msglog", "2:4", "PingPong"})
}
