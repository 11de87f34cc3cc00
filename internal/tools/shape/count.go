package main

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// pkgFigures are one package's counts.
type pkgFigures struct {
	files, lines, generated int // source files and their lines; generated files (not counted in lines)
	exported, methods       int
}

func (p *pkg) figures() (pkgFigures, error) {
	var f pkgFigures
	for _, fl := range p.files {
		if fl.generated {
			f.generated++
			continue
		}
		f.files++
		f.lines += fl.lines
	}
	var err error
	f.exported, f.methods, err = p.exportedNames()
	return f, err
}

// exportedNames counts what go/doc lists for the package: top-level exported identifiers and
// the exported methods declared on exported types. go/doc edits the syntax trees it is given,
// so it gets its own.
func (p *pkg) exportedNames() (exported, methods int, err error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, fl := range p.files {
		f, err := parser.ParseFile(fset, fl.rel, fl.src, parser.ParseComments)
		if err != nil {
			return 0, 0, err
		}
		files = append(files, f)
	}
	d, err := doc.NewFromFiles(fset, files, p.importPath)
	if err != nil {
		return 0, 0, err
	}
	names := func(vs []*doc.Value) (n int) {
		for _, v := range vs {
			n += len(v.Names)
		}
		return n
	}
	exported = names(d.Consts) + names(d.Vars) + len(d.Funcs) + len(d.Types)
	for _, t := range d.Types {
		exported += names(t.Consts) + names(t.Vars) + len(t.Funcs)
		for _, m := range t.Methods {
			if m.Level == 0 {
				methods++
			}
		}
	}
	return exported, methods, nil
}

func printPackages(w io.Writer, t *tree) error {
	lib := t.modules[0]
	var public []*pkg
	var left []string
	internal := 0
	for _, p := range lib.pkgs {
		switch why := p.notPublic(); why {
		case "":
			public = append(public, p)
		case "internal":
			internal++
		default:
			left = append(left, p.dir+" ("+why+")")
		}
	}
	left = append(left, fmt.Sprintf("%d internal", internal))
	fmt.Fprintf(w, "library %s: %d packages, %d public; not public: %s\n",
		lib.path, len(lib.pkgs), len(public), strings.Join(left, ", "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "package\tfiles\tlines\ttop-level\tmethods\tnames\t")
	var sum pkgFigures
	for _, p := range public {
		f, err := p.figures()
		if err != nil {
			return err
		}
		note := ""
		if f.generated > 0 {
			note = fmt.Sprintf(" (+%d generated files)", f.generated)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\n", p.dir, f.files, f.lines, f.exported, f.methods, f.exported+f.methods, note)
		sum.files += f.files
		sum.lines += f.lines
		sum.exported += f.exported
		sum.methods += f.methods
	}
	fmt.Fprintf(tw, "all public\t%d\t%d\t%d\t%d\t%d\t\n", sum.files, sum.lines, sum.exported, sum.methods, sum.exported+sum.methods)
	return tw.Flush()
}

// recvName is the name of a method's receiver type ("" for a function).
func recvName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	x := fd.Recv.List[0].Type
	for {
		switch y := x.(type) {
		case *ast.StarExpr:
			x = y.X
		case *ast.IndexExpr:
			x = y.X
		case *ast.IndexListExpr:
			x = y.X
		case *ast.ParenExpr:
			x = y.X
		case *ast.Ident:
			return y.Name
		default:
			return ""
		}
	}
}

// fileMethods are the methods of a type declared in one file, in the file's order.
type fileMethods struct {
	file  string
	names []string
}

// methodsOf returns the methods of type name in package p, exported or not, by file.
func methodsOf(p *pkg, name string) []fileMethods {
	var byFile []fileMethods
	for _, fl := range p.files {
		var names []string
		for _, d := range fl.ast.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && recvName(fd) == name {
				names = append(names, fd.Name.Name)
			}
		}
		if len(names) > 0 {
			byFile = append(byFile, fileMethods{fl.rel, names})
		}
	}
	return byFile
}

// fieldsOf returns the number of fields of struct type name in package p (an embedded field
// counts as one, "a, b int" as two), or -1 if p declares no struct type of that name.
func fieldsOf(p *pkg, name string) int {
	for _, fl := range p.files {
		for _, d := range fl.ast.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				ts := spec.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if ts.Name.Name != name || !ok {
					continue
				}
				n := 0
				for _, f := range st.Fields.List {
					n += max(len(f.Names), 1)
				}
				return n
			}
		}
	}
	return -1
}

// printMethods lists the methods of type name of the library's package in pkgDir, by file.
func printMethods(w io.Writer, t *tree, pkgDir, name string) error {
	p, err := t.find(pkgDir)
	if err != nil {
		return fmt.Errorf("-type %s.%s: %w", pkgDir, name, err)
	}
	byFile := methodsOf(p, name)
	total, exported := 0, 0
	for _, fm := range byFile {
		total += len(fm.names)
		for _, n := range fm.names {
			if token.IsExported(n) {
				exported++
			}
		}
	}
	fields := ""
	if n := fieldsOf(p, name); n >= 0 {
		fields = fmt.Sprintf(", %d fields", n)
	}
	fmt.Fprintf(w, "\ntype %s.%s: %d methods (%d exported) in %d files%s\n", p.importPath, name, total, exported, len(byFile), fields)
	for _, fm := range byFile {
		fmt.Fprintf(w, "  %s %d: %s\n", fm.file, len(fm.names), strings.Join(fm.names, " "))
	}
	return nil
}

type longFunc struct {
	file        string
	line, lines int
	name        string
}

// longFuncs returns the functions of a module over min lines, outside tests and generated files.
func (t *tree) longFuncs(m *module, min int) []longFunc {
	var out []longFunc
	for _, p := range m.pkgs {
		for _, fl := range p.files {
			if fl.generated {
				continue
			}
			for _, d := range fl.ast.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				start := t.fset.Position(fd.Pos()).Line
				n := t.fset.Position(fd.End()).Line - start + 1
				if n <= min {
					continue
				}
				name := fd.Name.Name
				if r := recvName(fd); r != "" {
					name = r + "." + name
				}
				out = append(out, longFunc{fl.rel, start, n, name})
			}
		}
	}
	return out
}

func printLongFuncs(w io.Writer, t *tree) {
	fmt.Fprintln(w, "\nfunctions over 80 lines (of them over 100), outside _test.go and generated files:")
	var all []longFunc
	for _, m := range t.modules {
		fs := t.longFuncs(m, 80)
		over100 := 0
		for _, f := range fs {
			if f.lines > 100 {
				over100++
			}
		}
		fmt.Fprintf(w, "  module %s (%s): %d (%d)\n", m.dir, m.path, len(fs), over100)
		all = append(all, fs...)
	}
	slices.SortFunc(all, func(a, b longFunc) int {
		return cmp.Or(cmp.Compare(b.lines, a.lines), strings.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
	})
	for _, f := range all {
		fmt.Fprintf(w, "  %4d %s:%d %s\n", f.lines, f.file, f.line, f.name)
	}
}
