package result

// BeffIOSummary is what the b_eff_io summary record holds. Bandwidths are
// in MB/s with MB = 10^6 bytes; memory and chunk sizes as the original
// prints them, MB = 2^20 bytes.
type BeffIOSummary struct {
	BeffIO     float64           `json:"b_eff_io"`      // maximum over the partitions
	Procs      int               `json:"procs"`         // the partition that reached it
	MemMB      int               `json:"mem_mb"`        // memory per process
	MPart      int               `json:"m_part"`        // bytes: max(2 MB, mem/128)
	T          float64           `json:"t_sec"`         // scheduled time of all partitions
	SumU       int               `json:"sum_u"`         // ΣU of one access method
	Uname      string            `json:"uname"`         // uname -a
	Partitions []BeffIOPartition `json:"partitions"`    // in run order
	Accesses   []string          `json:"accesses"`      // write, rewrite, read
	Types      []string          `json:"pattern_types"` // scatter ... seg_coll
}

// BeffIOPartition is the b_eff_io of one partition and its parts.
type BeffIOPartition struct {
	Procs   int          `json:"procs"`
	T       float64      `json:"t_sec"`         // scheduled time of this partition
	Segment int64        `json:"segment_bytes"` // Lseg of types 3 and 4, per process
	Types   [3][]float64 `json:"type_mbps"`     // [access][type]: bytes / time from open to close
	Bytes   [3]int64     `json:"bytes"`         // per access: all types, all processes
	Access  [3]float64   `json:"access_mbps"`   // type 0 weighted twice
	Value   float64      `json:"b_eff_io"`      // 25 % write + 25 % rewrite + 50 % read
}
