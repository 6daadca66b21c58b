package osu

// bigOK tells whether o may run sizes of 2 GiB and more (FuzzParse).
func bigOK(o *Options) bool {
	b, _ := Lookup(o.Bench)
	return o.MaxSize <= maxBigSize && checkBigSizes(b, &Options{Bench: o.Bench, MaxSize: o.MaxSize, Types: o.Types,
		DDT: o.DDT, MultipleBuffers: o.MultipleBuffers}) == nil
}
