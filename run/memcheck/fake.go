//go:build !mutant

package memcheck

// fakeAvailable is the memory hook of mutant builds (fake_mutant.go). A
// release build has none: it never reads MPIBENCH_FAKE_MEM_MB and always
// takes MemAvailable from /proc/meminfo.
func fakeAvailable() (bytes int64, ok bool, err error) { return 0, false, nil }
