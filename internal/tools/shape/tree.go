package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// tree is the library module and the modules nested in its directory.
type tree struct {
	root    string // the directory given
	fset    *token.FileSet
	modules []*module // the library first, then the nested ones by directory
}

type module struct {
	dir  string // relative to the tree's root, slash-separated: "." for the library
	path string // from its go.mod
	pkgs []*pkg // by directory
}

// pkg is the non-test Go files of one directory.
type pkg struct {
	dir        string // relative to the tree's root, slash-separated
	importPath string
	name       string
	files      []*file // sorted by name
}

type file struct {
	rel       string // relative to the tree's root, slash-separated
	ast       *ast.File
	src       []byte
	lines     int
	generated bool
}

func loadTree(root string) (*tree, error) {
	t := &tree{root: root, fset: token.NewFileSet()}
	queue := []string{"."}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		m, nested, err := t.loadModule(dir)
		if err != nil {
			return nil, err
		}
		t.modules = append(t.modules, m)
		queue = append(queue, nested...)
	}
	slices.SortStableFunc(t.modules[1:], func(a, b *module) int { return strings.Compare(a.dir, b.dir) })
	return t, nil
}

// loadModule reads the module whose go.mod is in dir and returns the directories of the
// modules nested in it.
func (t *tree) loadModule(dir string) (*module, []string, error) {
	modPath, err := modulePath(filepath.Join(t.root, filepath.FromSlash(dir), "go.mod"))
	if err != nil {
		return nil, nil, err
	}
	m := &module{dir: dir, path: modPath}
	var nested []string
	top := filepath.Join(t.root, filepath.FromSlash(dir))
	err = filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(t.root, p)
		rel = filepath.ToSlash(rel)
		if p != top {
			name := d.Name()
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				nested = append(nested, rel)
				return filepath.SkipDir
			}
		}
		pk, err := t.loadPackage(p, rel)
		if err != nil {
			return err
		}
		if pk != nil {
			pk.importPath = modPath
			if rel != dir {
				pk.importPath = modPath + "/" + strings.TrimPrefix(rel, dir+"/")
				if dir == "." {
					pk.importPath = modPath + "/" + rel
				}
			}
			m.pkgs = append(m.pkgs, pk)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return m, nested, nil
}

// modulePath reads the module line of a go.mod file.
func modulePath(goMod string) (string, error) {
	data, err := os.ReadFile(goMod)
	if err != nil {
		return "", err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", goMod)
}

// loadPackage parses the non-test .go files of dir; nil if it has no .go file.
func (t *tree) loadPackage(dir, rel string) (*pkg, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var pk *pkg
	tests := false
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		if strings.HasSuffix(name, "_test.go") {
			tests = true
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		fileRel := path.Join(rel, name)
		f, err := parser.ParseFile(t.fset, fileRel, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if ignored(f) {
			continue
		}
		if pk == nil {
			pk = &pkg{dir: rel, name: f.Name.Name}
		} else if f.Name.Name != pk.name {
			return nil, fmt.Errorf("%s: package %s, but %s is package %s", fileRel, f.Name.Name, pk.files[0].rel, pk.name)
		}
		pk.files = append(pk.files, &file{
			rel:       fileRel,
			ast:       f,
			src:       src,
			lines:     bytes.Count(src, []byte("\n")),
			generated: strings.HasSuffix(name, ".pb.go") || ast.IsGenerated(f),
		})
	}
	if pk == nil && tests {
		pk = &pkg{dir: rel} // a package of tests alone
	}
	return pk, nil
}

// ignored reports whether a file's build constraint is "ignore" (a file no build reads).
func ignored(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			x, err := constraint.Parse(c.Text)
			if err != nil {
				continue
			}
			if tag, ok := x.(*constraint.TagExpr); ok && tag.Tag == "ignore" {
				return true
			}
		}
	}
	return false
}

// notPublic reports why a package of the library is not public, or "" if it is.
func (p *pkg) notPublic() string {
	if slices.Contains(strings.Split(p.importPath, "/"), "internal") {
		return "internal"
	}
	if p.name == "main" {
		return "command"
	}
	for _, f := range p.files {
		for _, d := range f.ast.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			return ""
		}
	}
	return "test-only"
}

// find returns the library's package in dir ("." for the root).
func (t *tree) find(dir string) (*pkg, error) {
	for _, p := range t.modules[0].pkgs {
		if p.dir == dir {
			return p, nil
		}
	}
	return nil, errors.New("no package in " + dir)
}
