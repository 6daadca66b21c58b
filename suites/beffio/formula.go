package beffio

// Bandwidth is bytes/seconds in MB/s, MB = 10^6 bytes; 0 without time.
func Bandwidth(bytes int64, sec float64) float64 {
	if sec <= 0 {
		return 0
	}
	return float64(bytes) / sec / 1e6
}

// AccessValue is the b_eff_io value of one access method: the average
// over the five pattern types with the scattering type 0 weighted twice.
func AccessValue(types [Types]float64) float64 {
	return (2*types[0] + types[1] + types[2] + types[3] + types[4]) / (Types + 1)
}

// PartitionValue is the b_eff_io value of one partition: 25 % initial
// write, 25 % rewrite, 50 % read, as the paper defines it. (Release 2.1
// of the original, which rewrites type 0 only by default, takes instead
// the geometric mean of the write-and-rewrite and the read averages; the
// paper's definition is the one mpibench implements, with every type
// rewritten.)
func PartitionValue(access [3]float64) float64 {
	return 0.25*access[0] + 0.25*access[1] + 0.5*access[2]
}

// SystemValue is b_eff_io of the system: the maximum over the partitions
// and the index of the partition that reached it.
func SystemValue(partitions []float64) (float64, int) {
	best, at := 0.0, -1
	for i, v := range partitions {
		if at < 0 || v > best {
			best, at = v, i
		}
	}
	return best, at
}
