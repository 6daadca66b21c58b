package journal

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzResume: any results and state files resume without a panic, and a
// case is never both finished and crashed or hung.
func FuzzResume(f *testing.F) {
	f.Add(`{"suite":"mpi1","case":"A"}`+"\n", "start A\ndone A 1\n")
	f.Add(`{"suite":"mpi1","case":"A"}`+"\n"+`{"suite`, "start A\ndone A 1\nstart B\nhung B\n")
	f.Add("", "done A -1\nstart\nhung A B\ndone A x\n")
	f.Add("\x00\xff", "start A\nstart A\ndone A 0\n")
	f.Fuzz(func(t *testing.T, results, state string) {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		os.WriteFile(path, []byte(results), 0o644)
		os.WriteFile(StatePath(path), []byte(state), 0o644)
		j, r, err := Resume(path, nil)
		if err != nil {
			return
		}
		j.Close()
		if got := kept(t, r); len(got) != r.Kept {
			t.Fatalf("%d records kept, %d read back", r.Kept, len(got))
		}
		for _, key := range r.Done {
			if r.IsHung(key) || contains(r.Crashed, key) {
				t.Fatalf("%q is done and crashed or hung: %+v", key, r)
			}
		}
		// Resuming the rewritten files again finds the same.
		j, again, err := Resume(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		j.Close()
		if len(again.Done) != len(r.Done) || again.Kept != r.Kept || len(again.Hung) != len(r.Hung) {
			t.Fatalf("second resume differs: %+v then %+v", r, again)
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
