package golden

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheckFindsADifference(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	if err := os.WriteFile(path, []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Check(t, path, "a\nb\n")
	done := make(chan bool)
	ft := &testing.T{}
	go func() {
		defer close(done)
		Check(ft, path, "a\nc\n")
	}()
	<-done
	if !ft.Failed() {
		t.Error("Check passed a text that differs from the file")
	}
}
