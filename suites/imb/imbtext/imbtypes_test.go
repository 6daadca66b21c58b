package imbtext

import (
	"bytes"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// TestHeaderDatatypes: the header's datatype lines name -data_type and
// -red_data_type from the records' options, in both IMB headers, and
// IMB's defaults without them.
func TestHeaderDatatypes(t *testing.T) {
	for _, c := range []struct {
		imb2021    bool
		opts       map[string]string
		data, redn string
	}{
		{false, nil, "MPI_BYTE \n", "MPI_FLOAT\n"},
		{false, map[string]string{"data_type": "int", "red_data_type": "double"}, "MPI_INT \n", "MPI_DOUBLE\n"},
		{true, map[string]string{"red_data_type": "char"}, "MPI_BYTE \n", "MPI_CHAR \n"},
	} {
		var buf bytes.Buffer
		ctx := testContext(2)
		ctx.Options = c.opts
		h := result.Header{Context: ctx, Suite: result.SuiteMPI1, Part: "MPI-1", Multi: -1, IMB2021: c.imb2021}
		if err := NewIMBText(&buf).Start(h); err != nil {
			t.Fatal(err)
		}
		want := "# MPI_Datatype                   :   " + c.data + "# MPI_Datatype for reductions    :   " + c.redn
		if !strings.Contains(buf.String(), want) {
			t.Errorf("options %v, IMB 2021 %v: header\n%s\nwant\n%s", c.opts, c.imb2021, buf.String(), want)
		}
	}
}
