package textout

import "fmt"

// Bytes writes a message length as the reports show it: bytes, or KiB,
// MiB or GiB when it is a whole number of them (GiB for the messages of
// 2 GiB and more: -msglog 31, OSU's -m ...:4G).
func Bytes(b int) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", b>>30)
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}
