package floorplan

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layers are the top-level folders of the product, top first (doc.go).
var layers = []string{"cmd", "suites", "run", "mpi", "analysis", "internal"}

// beside are the folders outside the product: they may import anything,
// and nothing imports them.
var beside = []string{"e2e", "lab"}

// others are the top-level folders that hold no Go package.
var others = []string{"docs", "scripts"}

// suiteExceptions are the imports of one suite by another that doc.go
// allows.
var suiteExceptions = map[[2]string]bool{{"beffio", "beff"}: true}

const module = "mpibench"

func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// layer is the index of a package directory's top-level folder in layers,
// or -1 for beside, -2 for an unknown folder.
func layer(dir string) int {
	top, _, _ := strings.Cut(dir, "/")
	if i := slices.Index(layers, top); i >= 0 {
		return i
	}
	if slices.Contains(beside, top) {
		return -1
	}
	return -2
}

// imports maps every package directory (relative to the root) to the
// module's packages its non-test files import.
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if q, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(out[rel], q) {
				out[rel] = append(out[rel], q)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTopLevel: every top-level folder is a layer, beside the product, or
// one of the folders without Go; no Go package lies at the root.
func TestTopLevel(t *testing.T) {
	r := root(t)
	entries, err := os.ReadDir(r)
	if err != nil {
		t.Fatal(err)
	}
	known := slices.Concat(layers, beside, others)
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == "bin" {
			continue
		}
		if !slices.Contains(known, e.Name()) {
			t.Errorf("top-level folder %s/ has no role in the floor plan (doc.go)", e.Name())
		}
	}
	if m, _ := filepath.Glob(filepath.Join(r, "*.go")); len(m) > 0 {
		t.Errorf("Go files at the root: %v", m)
	}
}

// TestImportsGoDown: no package imports a layer above its own, nothing
// imports e2e/ or lab/, and a suite imports no other suite but as doc.go
// allows.
func TestImportsGoDown(t *testing.T) {
	pkgs := imports(t, root(t))
	if len(pkgs) < 20 {
		t.Fatalf("found %d packages; the walk is broken", len(pkgs))
	}
	for dir, ims := range pkgs {
		from := layer(dir)
		if from == -2 {
			t.Errorf("package %s is in no layer", dir)
			continue
		}
		for _, im := range ims {
			to := layer(im)
			switch {
			case to < 0:
				t.Errorf("%s imports %s, which is beside the product", dir, im)
			case from >= 0 && to < from:
				t.Errorf("%s (%s) imports %s (%s), a layer above", dir, layers[from], im, layers[to])
			case from >= 0 && layers[from] == "suites" && to == from && suiteOf(dir) != suiteOf(im) &&
				!suiteExceptions[[2]string{suiteOf(dir), suiteOf(im)}]:
				t.Errorf("suite %s imports suite %s (%s)", dir, im, "suites import no other suite")
			}
		}
	}
}

func suiteOf(dir string) string {
	parts := strings.Split(dir, "/")
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// TestLayerOf checks the classification the other tests rely on.
func TestLayerOf(t *testing.T) {
	for dir, want := range map[string]int{"cmd/mpibench": 0, "suites/imb/kernel": 1, "run/cases": 2, "mpi": 3,
		"analysis/report": 4, "internal/cli": 5, "e2e": -1, "lab/gokernel": -1, "bench": -2, "report/plots": -2} {
		if got := layer(dir); got != want {
			t.Errorf("layer(%q) = %d, want %d", dir, got, want)
		}
	}
	if suiteOf("suites/imb/imbtext") != "imb" || suiteOf("mpi") != "" {
		t.Error("suiteOf")
	}
}
