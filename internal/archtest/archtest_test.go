package archtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/go-hbase/hbase"

// row is one row of the layer table of docs/architecture.md.
type row struct {
	line    int
	pkg     string   // relative to the module root: "" for the root, "cmd/..." for a wildcard
	api     string   // "stable", "lower layer", "internal", "tool" or "other module"
	imports []string // the module packages its non-test code imports, relative like pkg
}

func (r row) wildcard() bool { return strings.HasSuffix(r.pkg, "/...") }

func (r row) matches(rel string) bool {
	if r.wildcard() {
		prefix := strings.TrimSuffix(r.pkg, "...")
		return strings.HasPrefix(rel, prefix)
	}
	return rel == r.pkg
}

func name(rel string) string {
	if rel == "" {
		return "hbase (root)"
	}
	return rel
}

var ticked = regexp.MustCompile("`([^`]+)`")

// relPath turns a package as the table names it into a path relative to the module root.
func relPath(s string) string {
	if s == "hbase" {
		return ""
	}
	return s
}

// readTable parses the table of the section "Layers and import rules": four cells per row,
// package, API, what it is, imports of the module (packages in backquotes, "–" for none).
func readTable(t *testing.T, root string) []row {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []row
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Layers and import rules"
			continue
		case !in || !strings.HasPrefix(line, "| `"):
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 4 {
			t.Fatalf("docs/architecture.md:%d: %d cells in a layer table row; want 4 (package, API, what, imports)", n, len(cells))
		}
		r := row{line: n, api: strings.Trim(cells[1], "* ")}
		pkgs := ticked.FindAllStringSubmatch(cells[0], -1)
		if r.api != "other module" {
			if len(pkgs) != 1 {
				t.Fatalf("docs/architecture.md:%d: want one package in backquotes, got %q", n, cells[0])
			}
			r.pkg = relPath(pkgs[0][1])
		}
		if r.api == "other module" {
			continue // its own go.mod: not in this module's go list
		}
		switch r.api {
		case "stable", "lower layer", "internal", "tool":
		default:
			t.Fatalf("docs/architecture.md:%d: API %q; want stable, lower layer, internal, tool or other module", n, r.api)
		}
		for _, m := range ticked.FindAllStringSubmatch(cells[3], -1) {
			r.imports = append(r.imports, relPath(m[1]))
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("docs/architecture.md: no layer table under \"## Layers and import rules\"")
	}
	return rows
}

// goPackage is what go list says of one package.
type goPackage struct {
	ImportPath string
	Imports    []string
	Export     string
}

func goList(t *testing.T, root string, args ...string) []goPackage {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = root
	// This module alone: go.work would add the tools and adapters, modules of their own.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, stderr.Bytes())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.Contains(b, []byte("module "+module+"\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod of %s above the test's directory", module)
		}
		dir = parent
	}
}

// rel is a module package's path relative to the module root; ok is false outside the module.
func rel(path string) (string, bool) {
	if path == module {
		return "", true
	}
	r, ok := strings.CutPrefix(path, module+"/")
	return r, ok
}

// TestLayers checks the layer table against the imports of every package of the module.
func TestLayers(t *testing.T) {
	root := moduleRoot(t)
	for _, p := range checkLayers(readTable(t, root), goList(t, root, "./...")) {
		t.Error(p)
	}
}

// checkLayers returns the ways the packages break the table's rules.
func checkLayers(rows []row, pkgs []goPackage) []string {
	var problems []string
	index := make(map[string]int) // package of an exact row -> its place in the table
	for i, r := range rows {
		if !r.wildcard() {
			index[r.pkg] = i
		}
	}
	matched := make([]bool, len(rows))
	for _, p := range pkgs {
		rp, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		i := slices.IndexFunc(rows, func(r row) bool { return r.matches(rp) })
		if i < 0 {
			problems = append(problems, fmt.Sprintf("package %s has no row in the layer table of docs/architecture.md", name(rp)))
			continue
		}
		r := rows[i]
		matched[i] = true
		var got []string
		for _, imp := range p.Imports {
			if ri, ok := rel(imp); ok {
				got = append(got, ri)
			}
		}
		for _, g := range got {
			if !slices.Contains(r.imports, g) {
				problems = append(problems, fmt.Sprintf("docs/architecture.md:%d: %s imports %s, which its row does not list", r.line, name(rp), name(g)))
			} else if j, ok := index[g]; !ok || j >= i {
				problems = append(problems, fmt.Sprintf("docs/architecture.md:%d: %s imports %s, which is not above it in the layer table", r.line, name(rp), name(g)))
			}
		}
		if !r.wildcard() {
			for _, want := range r.imports {
				if !slices.Contains(got, want) {
					problems = append(problems, fmt.Sprintf("docs/architecture.md:%d: the row of %s lists %s, which it does not import", r.line, name(rp), name(want)))
				}
			}
		}
	}
	for i, r := range rows {
		if !matched[i] && !r.wildcard() {
			problems = append(problems, fmt.Sprintf("docs/architecture.md:%d: a row for %s, which is not a package of the module", r.line, name(r.pkg)))
		}
	}
	return problems
}

// TestStableAPI checks that the exported API of each stable package names no type of a lower
// layer or internal package: a program that uses the client never has to import one.
func TestStableAPI(t *testing.T) {
	root := moduleRoot(t)
	rows := readTable(t, root)
	var stable []string
	hidden := make(map[string]bool) // import paths of lower layers and internal packages
	for _, r := range rows {
		path := module
		if r.pkg != "" {
			path += "/" + r.pkg
		}
		switch r.api {
		case "stable":
			stable = append(stable, path)
		case "lower layer", "internal":
			hidden[path] = true
		}
	}
	exports := make(map[string]string)
	for _, p := range goList(t, root, append([]string{"-export", "-deps"}, stable...)...) {
		exports[p.ImportPath] = p.Export
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	isHidden := func(path string) bool {
		return hidden[path] || strings.HasPrefix(path, module+"/internal/")
	}
	for _, path := range stable {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatalf("importing %s: %v", path, err)
		}
		for _, p := range apiProblems(pkg, isHidden) {
			t.Error(p)
		}
	}
}

// apiProblems walks the exported API of pkg (functions, variables, constants, types with
// their exported fields and exported methods, promoted ones included) and reports every named
// type it mentions from a package for which hidden is true.
func apiProblems(pkg *types.Package, hidden func(path string) bool) []string {
	var problems []string
	var where string
	var seen map[types.Type]bool // per declaration or method: a type is reported where it is named
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Alias:
			walk(types.Unalias(t))
		case *types.Named:
			if p := t.Obj().Pkg(); p != nil && hidden(p.Path()) {
				problems = append(problems, fmt.Sprintf("%s: %s mentions %s.%s", pkg.Name(), where, p.Path(), t.Obj().Name()))
			}
			for i := range t.TypeArgs().Len() {
				walk(t.TypeArgs().At(i))
			}
			// The named type's own API is checked where it is declared, if it is stable.
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Signature:
			walk(t.Params())
			walk(t.Results())
		case *types.Tuple:
			for i := range t.Len() {
				walk(t.At(i).Type())
			}
		case *types.Struct:
			for i := range t.NumFields() {
				if f := t.Field(i); f.Exported() {
					walk(f.Type())
				}
			}
		case *types.Interface:
			for i := range t.NumMethods() {
				if m := t.Method(i); m.Exported() {
					walk(m.Type())
				}
			}
			for i := range t.NumEmbeddeds() {
				walk(t.EmbeddedType(i))
			}
		case *types.TypeParam:
			walk(t.Constraint())
		}
	}
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		obj := scope.Lookup(n)
		if !obj.Exported() {
			continue
		}
		where, seen = n, make(map[types.Type]bool)
		switch obj := obj.(type) {
		case *types.TypeName:
			if obj.IsAlias() {
				walk(obj.Type())
				continue
			}
			named, ok := obj.Type().(*types.Named)
			if !ok {
				continue
			}
			if tps := named.TypeParams(); tps != nil {
				for i := range tps.Len() {
					walk(tps.At(i).Constraint())
				}
			}
			if !opaqueOption(named, hidden) {
				walk(named.Underlying())
			}
			ms := types.NewMethodSet(types.NewPointer(named))
			if types.IsInterface(named) {
				ms = types.NewMethodSet(named)
			}
			for i := range ms.Len() {
				if m := ms.At(i).Obj(); m.Exported() {
					where, seen = n+"."+m.Name(), make(map[types.Type]bool)
					walk(m.Type())
				}
			}
		default:
			walk(obj.Type())
		}
	}
	return problems
}

// opaqueOption reports whether named is an option type over an internal settings struct, as
// hbase.Option is (func(*engine.Config) error): a program can neither build nor read the
// struct, so it only passes the options the module's packages make. Any other type of the
// signature is checked as usual.
func opaqueOption(named *types.Named, hidden func(path string) bool) bool {
	sig, ok := named.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 1 || sig.Variadic() {
		return false
	}
	if r, ok := sig.Results().At(0).Type().(*types.Named); !ok || r.Obj().Pkg() != nil || r.Obj().Name() != "error" {
		return false
	}
	ptr, ok := sig.Params().At(0).Type().(*types.Pointer)
	if !ok {
		return false
	}
	cfg, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || cfg.Obj().Pkg() == nil || !hidden(cfg.Obj().Pkg().Path()) {
		return false
	}
	_, isStruct := cfg.Underlying().(*types.Struct)
	return isStruct
}

// checkLayers reports each kind of drift between a table and the code.
func TestCheckLayersCatchesBreaks(t *testing.T) {
	rows := []row{
		{line: 1, pkg: "a"},
		{line: 2, pkg: "b", imports: []string{"a", "c"}}, // c is below b
		{line: 3, pkg: "c"},
		{line: 4, pkg: "gone"},
		{line: 5, pkg: "cmd/...", imports: []string{"a"}},
	}
	m := func(p string) string { return module + "/" + p }
	pkgs := []goPackage{
		{ImportPath: m("a"), Imports: []string{"fmt", m("b")}}, // a imports b, not listed
		{ImportPath: m("b"), Imports: []string{m("c")}},        // lists a but does not import it
		{ImportPath: m("c")},
		{ImportPath: m("new")},                              // no row
		{ImportPath: m("cmd/x"), Imports: []string{m("b")}}, // a wildcard row lists only a
	}
	want := []string{
		"docs/architecture.md:1: a imports b, which its row does not list",
		"docs/architecture.md:2: b imports c, which is not above it in the layer table",
		"docs/architecture.md:2: the row of b lists a, which it does not import",
		"package new has no row in the layer table of docs/architecture.md",
		"docs/architecture.md:5: cmd/x imports b, which its row does not list",
		"docs/architecture.md:4: a row for gone, which is not a package of the module",
	}
	got := checkLayers(rows, pkgs)
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// opaqueOption takes only func(*S) error with S a struct of a hidden package.
func TestOpaqueOption(t *testing.T) {
	hiddenPkg := types.NewPackage(module+"/internal/x", "x")
	openPkg := types.NewPackage(module+"/y", "y")
	named := func(pkg *types.Package, name string, u types.Type) *types.Named {
		return types.NewNamed(types.NewTypeName(token.NoPos, pkg, name, nil), u, nil)
	}
	cfg := named(hiddenPkg, "Config", types.NewStruct(nil, nil))
	open := named(openPkg, "Config", types.NewStruct(nil, nil))
	errType := types.Universe.Lookup("error").Type()
	sig := func(param types.Type, result types.Type) *types.Named {
		return named(openPkg, "Option", types.NewSignatureType(nil, nil, nil,
			types.NewTuple(types.NewParam(token.NoPos, nil, "c", param)),
			types.NewTuple(types.NewParam(token.NoPos, nil, "", result)), false))
	}
	hidden := func(path string) bool { return strings.Contains(path, "/internal/") }
	for _, c := range []struct {
		name string
		t    *types.Named
		want bool
	}{
		{"func(*internal struct) error", sig(types.NewPointer(cfg), errType), true},
		{"func(internal struct) error", sig(cfg, errType), false},
		{"func(*open struct) error", sig(types.NewPointer(open), errType), false},
		{"func(*internal struct) int", sig(types.NewPointer(cfg), types.Typ[types.Int]), false},
	} {
		if got := opaqueOption(c.t, hidden); got != c.want {
			t.Errorf("%s: opaqueOption = %v; want %v", c.name, got, c.want)
		}
	}
}
