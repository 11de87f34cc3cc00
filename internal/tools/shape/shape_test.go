package main

import (
	"bytes"
	"cmp"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixture copies testdata/tree to a temporary directory, its go.mod.in files as go.mod (the
// repository holds no go.mod under testdata, so no tool takes the fixture for a module).
func fixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata", "tree")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if filepath.Base(rel) == "go.mod.in" {
			rel = filepath.Join(filepath.Dir(rel), "go.mod")
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestPackagesAndNames(t *testing.T) {
	tr, err := loadTree(fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.modules) != 2 || tr.modules[0].path != "example.com/lib" || tr.modules[1].dir != "nested" {
		t.Fatalf("modules = %+v; want example.com/lib and nested", tr.modules)
	}
	var got []string
	for _, p := range tr.modules[0].pkgs {
		got = append(got, p.dir+":"+p.notPublic())
	}
	want := []string{".:", "cmd/tool:command", "conformance:test-only", "docs:test-only", "internal/eng:internal"}
	if !slices.Equal(got, want) {
		t.Fatalf("packages = %q; want %q (testdata and _skipped not read)", got, want)
	}
	root, err := tr.find(".")
	if err != nil {
		t.Fatal(err)
	}
	f, err := root.figures()
	if err != nil {
		t.Fatal(err)
	}
	// client.go (32 lines) and ops.go (269); gen.go generated, ignored.go and client_test.go
	// not read. Top-level: A, B, Y, Client, New, Iface, Gen; methods: Get, Put, Long.
	wantF := pkgFigures{files: 2, lines: 301, generated: 1, exported: 7, methods: 3}
	if f != wantF {
		t.Fatalf("root figures = %+v; want %+v", f, wantF)
	}
}

func TestMethodsOf(t *testing.T) {
	tr, err := loadTree(fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	root, _ := tr.find(".")
	got := methodsOf(root, "Client")
	if n := fieldsOf(root, "Client"); n != 3 {
		t.Fatalf("Client's fields = %d; want 3 (Exported, a, b)", n)
	}
	if n := fieldsOf(root, "Iface"); n != -1 {
		t.Fatalf("Iface's fields = %d; want -1 (not a struct)", n)
	}
	want := []fileMethods{{"client.go", []string{"Get", "get"}}, {"ops.go", []string{"Put", "Long"}}}
	if len(got) != len(want) {
		t.Fatalf("methods = %v; want %v", got, want)
	}
	for i := range want {
		if got[i].file != want[i].file || !slices.Equal(got[i].names, want[i].names) {
			t.Fatalf("methods = %v; want %v", got, want)
		}
	}
}

func TestLongFuncs(t *testing.T) {
	tr, err := loadTree(fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	// notLong is exactly 80 lines: not over. generatedLong (gen.go) and testLong (a test
	// file) are left out.
	got := tr.longFuncs(tr.modules[0], 80)
	want := []longFunc{{"internal/eng/eng.go", 5, 90, "step"}, {"ops.go", 6, 81, "Client.Long"}, {"ops.go", 169, 101, "longer"}}
	slices.SortFunc(got, func(a, b longFunc) int { return cmp.Or(strings.Compare(a.file, b.file), cmp.Compare(a.line, b.line)) })
	if !slices.Equal(got, want) {
		t.Fatalf("library's long functions = %v; want %v", got, want)
	}
	if got := tr.longFuncs(tr.modules[1], 100); !slices.Equal(got, []longFunc{{"nested/n.go", 3, 120, "Walk"}}) {
		t.Fatalf("nested module's functions over 100 lines = %v; want nested/n.go:3 Walk, 120 lines", got)
	}
}

func TestRunIsStable(t *testing.T) {
	dir := fixture(t)
	var a, b bytes.Buffer
	if err := run(&a, dir, []string{"Client", "internal/eng.Nothing"}); err != nil {
		t.Fatal(err)
	}
	if err := run(&b, dir, []string{"Client", "internal/eng.Nothing"}); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatalf("two runs differ:\n%s\n---\n%s", a.String(), b.String())
	}
	for _, line := range []string{
		"library example.com/lib: 5 packages, 1 public; not public: cmd/tool (command), conformance (test-only), docs (test-only), 1 internal",
		"type example.com/lib.Client: 4 methods (3 exported) in 2 files, 3 fields",
		"type example.com/lib/internal/eng.Nothing: 0 methods (0 exported) in 0 files",
		"  module . (example.com/lib): 3 (1)",
		"  module nested (example.com/lib/nested): 1 (1)",
	} {
		if !strings.Contains(a.String(), line+"\n") {
			t.Errorf("output has no line %q:\n%s", line, a.String())
		}
	}
}
