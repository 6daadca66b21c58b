//go:build unix

package safefile

import (
	"io/fs"
	"syscall"
)

// noFollow makes an open fail on a symbolic link at the last component.
// O_NONBLOCK keeps a FIFO put in place of a checked file from blocking
// the open until a reader comes; it does nothing to a regular file.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// links is a file's link count and owner.
func links(st fs.FileInfo) (nlink uint64, uid int) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 1, -1
	}
	return uint64(s.Nlink), int(s.Uid)
}
