package snippets

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Package is one public package of the repository.
type Package struct {
	Name string // its package name
	Path string // its import path
	Dir  string // slash-separated, from the repository's root
}

// textDirective marks a doc comment's code block as not Go (see the package doc).
const textDirective = "//snippets:text "

// PackageDocs walks the repository at root and returns its public packages (every package
// that is not main, under no directory named internal or testdata, nor one starting with "."
// or "_"; nested modules included) and the code blocks of their package documentation.
func PackageDocs(root string) (pkgs []Package, blocks []Block, problems []string, err error) {
	modules := map[string]string{} // directory → module path of its go.mod, "" without one
	err = filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if dir != root && (name == "internal" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		pkg, b, p, err := packageDoc(root, rel, modules)
		if err != nil || pkg == nil {
			return err
		}
		pkgs = append(pkgs, *pkg)
		blocks = append(blocks, b...)
		problems = append(problems, p...)
		return nil
	})
	return pkgs, blocks, problems, err
}

// packageDoc reads the package clauses of the Go files (not tests) of the directory rel; nil
// for a directory without any, or a command.
func packageDoc(root, rel string, modules map[string]string) (*Package, []Block, []string, error) {
	dir := filepath.Join(root, filepath.FromSlash(rel))
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, nil, err
	}
	fset := token.NewFileSet()
	var pkg *Package
	var blocks []Block
	var problems []string
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return nil, nil, nil, err
		}
		if f.Name.Name == "main" {
			return nil, nil, nil, nil
		}
		if pkg == nil {
			modDir, modPath, err := module(root, rel, modules)
			if err != nil {
				return nil, nil, nil, err
			}
			if modPath == "" {
				return nil, nil, nil, fmt.Errorf("%s: no go.mod above it", rel)
			}
			inMod := rel // the directory within its module
			switch {
			case rel == modDir:
				inMod = ""
			case modDir != ".":
				inMod = strings.TrimPrefix(rel, modDir+"/")
			}
			pkg = &Package{Name: f.Name.Name, Path: path.Join(modPath, inMod), Dir: rel}
		}
		if f.Doc != nil {
			b, p := docBlocks(fset, path.Join(rel, filepath.Base(file)), f.Doc)
			blocks = append(blocks, b...)
			problems = append(problems, p...)
		}
	}
	return pkg, blocks, problems, nil
}

// module returns the directory (from root) and module path of the go.mod that holds rel.
func module(root, rel string, modules map[string]string) (string, string, error) {
	for d := rel; ; d = path.Dir(d) {
		modPath, ok := modules[d]
		if !ok {
			var err error
			if modPath, err = readModulePath(filepath.Join(root, filepath.FromSlash(d), "go.mod")); err != nil {
				return "", "", err
			}
			modules[d] = modPath
		}
		if modPath != "" {
			return d, modPath, nil
		}
		if d == "." {
			return "", "", nil
		}
	}
}

// readModulePath returns the module line of a go.mod, "" when there is no such file.
func readModulePath(file string) (string, error) {
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s: no module line", file)
}

// docBlocks returns the code blocks of a doc comment, as go doc shows them, with the line of
// each; those a snippets:text directive names are not Go.
func docBlocks(fset *token.FileSet, name string, cg *ast.CommentGroup) ([]Block, []string) {
	type directive struct {
		start string
		line  int
		used  bool
	}
	var directives []*directive
	for _, c := range cg.List {
		if start, ok := strings.CutPrefix(c.Text, textDirective); ok {
			directives = append(directives, &directive{start: strings.TrimSpace(start), line: fset.Position(c.Slash).Line})
		}
	}
	var blocks []Block
	next := 0 // the comment line after the last block found
	for _, content := range new(comment.Parser).Parse(cg.Text()).Content {
		code, ok := content.(*comment.Code)
		if !ok {
			continue
		}
		first := ""
		for l := range strings.SplitSeq(code.Text, "\n") {
			if first = strings.TrimSpace(l); first != "" {
				break
			}
		}
		b := Block{File: name, Line: fset.Position(cg.Pos()).Line, Text: code.Text, Lang: "go"}
		for i := next; i < len(cg.List); i++ {
			if strings.TrimSpace(strings.TrimPrefix(cg.List[i].Text, "//")) == first {
				b.Line = fset.Position(cg.List[i].Slash).Line
				next = i + 1
				break
			}
		}
		for _, d := range directives {
			if strings.HasPrefix(first, d.start) {
				b.Lang = "text"
				d.used = true
			}
		}
		blocks = append(blocks, b)
	}
	var problems []string
	for _, d := range directives {
		if !d.used {
			problems = append(problems, fmt.Sprintf("%s:%d: %q marks no code block of the comment", name, d.line, strings.TrimSpace(textDirective)+" "+d.start))
		}
	}
	return blocks, problems
}
