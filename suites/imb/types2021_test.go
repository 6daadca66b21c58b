package imb

import (
	"slices"
	"strings"
	"testing"

	"mpibench/suites/imb/kernel"
)

// TestOffCacheValues: -off_cache reads as IMB-MPI1 2021.11's prepare
// reads it (one value: the size with a 64-byte line, a negative size the
// defaults 8 MB and 64; two: size and line) and refuses what IMB would
// divide by zero with or silently drop.
func TestOffCacheValues(t *testing.T) {
	for _, c := range []struct {
		val  string
		mb   float32
		line int
	}{
		{"-1", 8, 64}, {"2.5", 2.5, 64}, {"16,128", 16, 128}, {"0", 0, 64}, {"-3", 8, 64},
	} {
		var ty Types2021
		if err := ty.set("off_cache", c.val); err != nil || ty.CacheMB != c.mb || ty.CacheLine != c.line {
			t.Errorf("-off_cache %s: %v, %g MB, line %d; want %g, %d", c.val, err, ty.CacheMB, ty.CacheLine, c.mb, c.line)
		}
	}
	for _, val := range []string{"8,0", "8,-64", "8,64.5", "-1,128", "x", "NaN", "1,2,3", ""} {
		var ty Types2021
		if err := ty.set("off_cache", val); err == nil || !strings.Contains(err.Error(), "-off_cache") {
			t.Errorf("-off_cache %q: want an error naming the flag, got %v", val, err)
		}
	}
}

// TestDataTypeValues: the names of IMB 2021.11's types; MPI_SUM has no
// byte, float16 and bfloat16 are refused by name.
func TestDataTypeValues(t *testing.T) {
	var ty Types2021
	for _, v := range []string{"byte", "char", "int", "float", "double"} {
		if err := ty.set("data_type", v); err != nil || ty.Data.String() != v {
			t.Errorf("-data_type %s: %v (%v)", v, err, ty.Data)
		}
	}
	for _, v := range []string{"char", "int", "float", "double"} {
		if err := ty.set("red_data_type", v); err != nil || ty.Red.String() != v {
			t.Errorf("-red_data_type %s: %v (%v)", v, err, ty.Red)
		}
	}
	for _, c := range [][2]string{{"red_data_type", "byte"}, {"data_type", "float16"}, {"red_data_type", "bfloat16"},
		{"data_type", "long"}, {"data_type", "INT"}} {
		if err := ty.set(c[0], c[1]); err == nil || !strings.Contains(err.Error(), "-"+c[0]+" ") {
			t.Errorf("-%s %s: want an error naming it, got %v", c[0], c[1], err)
		}
	}
}

// TestCacheSlots: IMB's slot layout, figures worked out by hand: a slot
// is the buffer rounded up to lines plus one line, the count about 2·SIZE
// MB over the slot, in float arithmetic as IMB computes it (16777216 + 127
// is 16777344 as a float, so 8 MB over 128-byte slots makes 131073 slots,
// not 131072), at most n_sample.
func TestCacheSlots(t *testing.T) {
	for _, c := range []struct {
		mb                 float32
		line, n, nSample   int
		wantIter, wantOffs int
	}{
		{8, 64, 4, 1 << 30, 131073, 128},
		{8, 64, 4, 1000, 1000, 128},
		{8, 64, 64, 1000, 1000, 128},
		{8, 64, 65, 1000, 1000, 192},
		{0.01, 64, 1024, 1000, 20, 1088},    // 20971.52 + 1087 over 1088: 20.27
		{2.5, 128, 4 << 20, 10, 2, 4194432}, // 5 MiB + 4 MiB + 127 over 4 MiB + 128: 2.25
		{16, 128, 1 << 22, 10, 8, 4194432},
	} {
		ty := Types2021{CacheMB: c.mb, CacheLine: c.line}
		iter, offs := ty.cacheSlots(c.n, c.nSample)
		if iter != c.wantIter || offs != c.wantOffs {
			t.Errorf("%g MB, line %d, %d bytes, n_sample %d: %d slots of %d bytes, want %d of %d", c.mb, c.line, c.n,
				c.nSample, iter, offs, c.wantIter, c.wantOffs)
		}
	}
}

// TestTypedBenchmarks: -data_type types the non-reductions, -red_data_type
// the reductions, and the units and names follow; Barrier and the table
// stay as they are.
func TestTypedBenchmarks(t *testing.T) {
	f := Flags2021{Types: Types2021{Data: kernel.TypeDouble, Red: kernel.TypeChar}}
	for _, c := range []struct {
		name, dt string
		unit     int
	}{
		{"PingPong", "MPI_DOUBLE", 8}, {"Gatherv", "MPI_DOUBLE", 8}, {"Allreduce", "MPI_CHAR", 1},
		{"Reduce_local", "MPI_CHAR", 1}, {"Barrier", "-", 1},
	} {
		b := f.lookup(MPI1Suite, c.name)
		if b.Datatype() != c.dt || b.Unit() != c.unit {
			t.Errorf("%s: %s, unit %d; want %s, %d", c.name, b.Datatype(), b.Unit(), c.dt, c.unit)
		}
	}
	if b, _ := MPI1Suite.Lookup("PingPong"); b.Type != kernel.TypeDefault {
		t.Errorf("the table's PingPong was typed %v", b.Type)
	}
	set := MPI1Suite.Settings
	set.MaxMsgLog = 4
	b := f.lookup(MPI1Suite, "PingPong")
	if got := planLengths(&set, nil, b); !slices.Equal(got, []int{0, 8, 16}) {
		t.Errorf("PingPong as doubles, -msglog 4: lengths %v, want 0 8 16 (IMB-MPI1 prints these)", got)
	}
	if got := planLengths(&set, []int{1, 9, 16}, b); !slices.Equal(got, []int{8, 16}) {
		t.Errorf("-msglen 1 9 16 as doubles: lengths %v, want 8 16", got)
	}
}
