package snippets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Check type-checks the Go blocks against the code of the repository at root, whose public
// packages are pkgs, and returns a problem for each error, as file:line:column of the block's
// source.
func Check(root string, pkgs []Package, blocks []Block) ([]string, error) {
	names := map[string]string{}
	for name, p := range knownPackages {
		names[name] = p
	}
	ambiguous := map[string]bool{}
	for _, p := range pkgs {
		if _, ok := names[p.Name]; ok {
			ambiguous[p.Name] = true
		}
		names[p.Name] = p.Path
	}
	for name := range ambiguous {
		delete(names, name) // such a fragment imports it itself
	}

	var problems []string
	var units []*unit
	paths := map[string]bool{}
	for _, b := range blocks {
		if !b.IsGo() {
			continue
		}
		u, err := build(b, names)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		units = append(units, u)
		for _, p := range u.imports {
			paths[p] = true
			if isInternal(p) {
				problems = append(problems, fmt.Sprintf("%s:%d: imports %s, which a user's module cannot import", b.File, b.Line, p))
			}
		}
	}
	if len(units) == 0 {
		return problems, nil
	}
	exports, err := listExports(root, slices.Sorted(maps.Keys(paths)))
	if err != nil {
		return nil, err
	}
	goVersion, err := goVersion(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}

	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		e, ok := exports[path]
		switch {
		case !ok:
			return nil, fmt.Errorf("go list did not find package %s", path)
		case e.Error != nil:
			return nil, errors.New(e.Error.Err)
		case e.Export == "":
			return nil, fmt.Errorf("no export data for %s (it does not compile?)", path)
		}
		return os.Open(e.Export)
	})
	for _, u := range units {
		problems = append(problems, typeCheck(fset, imp, goVersion, u)...)
	}
	return problems, nil
}

// typeCheck checks one block's package.
func typeCheck(fset *token.FileSet, imp types.Importer, goVersion string, u *unit) []string {
	var files []*ast.File
	for _, sf := range u.files {
		f, err := parser.ParseFile(fset, sf.name, sf.src, 0)
		if err != nil {
			return []string{err.Error()}
		}
		files = append(files, f)
	}
	var problems []string
	conf := types.Config{
		GoVersion: goVersion,
		Importer:  imp,
		// Every error counts, soft ones too ("declared and not used", "imported and not
		// used"): a snippet that would not compile as a user copies it is wrong.
		Error: func(err error) {
			problems = append(problems, err.Error())
		},
	}
	pkg, _ := conf.Check("snippet", fset, files, nil)
	if u.kind == kindFile && pkg != nil && pkg.Name() == "main" {
		if _, ok := pkg.Scope().Lookup("main").(*types.Func); !ok {
			problems = append(problems, fmt.Sprintf("%s:%d: package main without func main", u.block.File, u.block.Line))
		}
	}
	return problems
}

func isInternal(importPath string) bool {
	return strings.HasSuffix(importPath, "/internal") || strings.Contains(importPath, "/internal/") ||
		strings.HasPrefix(importPath, "internal/")
}

type export struct {
	ImportPath string
	Export     string
	Error      *struct{ Err string }
}

// listExports builds the packages and their dependencies in the repository's workspace and
// returns where their export data is.
func listExports(root string, paths []string) (map[string]export, error) {
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.Command(goCmd, append([]string{"list", "-e", "-export", "-deps", "-json=ImportPath,Export,Error"}, paths...)...)
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	cmd.Dir = root
	work := filepath.Join(root, "go.work")
	if _, err := os.Stat(work); err != nil {
		work = "off"
	}
	// The workspace, whatever the caller's (make runs the library's tests with GOWORK=off),
	// so that contrib's snippets find their modules; GOFLAGS such as -mod=mod do not apply to
	// a workspace.
	cmd.Env = append(os.Environ(), "GOWORK="+work, "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return nil, fmt.Errorf("go list -export: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	exports := map[string]export{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var e export
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("go list -export: %w", err)
		}
		exports[e.ImportPath] = e
	}
	return exports, nil
}

// goVersion returns the language version of a go.mod ("go1.26").
func goVersion(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	for l := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "go "); ok {
			parts := strings.SplitN(strings.TrimSpace(v), ".", 3)
			return "go" + strings.Join(parts[:min(2, len(parts))], "."), nil
		}
	}
	return "", fmt.Errorf("%s: no go line", gomod)
}
