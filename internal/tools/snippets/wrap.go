package snippets

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// knownPackages are the packages outside the repository that a fragment may use by name
// without importing them.
var knownPackages = map[string]string{
	"bytes":       "bytes",
	"context":     "context",
	"errors":      "errors",
	"fmt":         "fmt",
	"http":        "net/http",
	"io":          "io",
	"log":         "log",
	"net":         "net",
	"os":          "os",
	"signal":      "os/signal",
	"slog":        "log/slog",
	"strings":     "strings",
	"sync":        "sync",
	"testing":     "testing",
	"time":        "time",
	"tls":         "crypto/tls",
	"x509":        "crypto/x509",
	"otel":        "go.opentelemetry.io/otel",
	"propagation": "go.opentelemetry.io/otel/propagation",
	"prometheus":  "github.com/prometheus/client_golang/prometheus",
	"promhttp":    "github.com/prometheus/client_golang/prometheus/promhttp",
}

// prelude declares the variables a fragment may use without declaring them.
var prelude = []struct{ name, typ string }{
	{"ctx", "context.Context"},
	{"client", "*hbase.Client"},
	{"quorum", "string"},
	{"table", "string"},
	{"row", "[]byte"},
	{"fam", "[]byte"},
	{"scan", "*hrpc.Scan"},
}

const (
	kindFile         = "file"
	kindDeclarations = "declarations"
	kindStatements   = "statements"
)

// unit is the package a Go block is checked as.
type unit struct {
	block   Block
	kind    string
	files   []srcFile
	imports []string // import paths of every file
}

type srcFile struct{ name, src string }

func (u *unit) fragment() bool { return u.kind != kindFile }

// build turns a Go block into the source of a package; names maps the package names a
// fragment may use without importing them to their import paths. The error is the block's
// syntax error.
func build(b Block, names map[string]string) (*unit, error) {
	text := elide(b.Text)
	line := fmt.Sprintf("//line %s:%d\n", b.File, b.Line)
	u := &unit{block: b}
	var src string
	if isFile(text) {
		u.kind = kindFile
		src = line + text
	} else if f, err := parser.ParseFile(token.NewFileSet(), "", "package snippet\n"+text, parser.SkipObjectResolution); err == nil && len(f.Decls) > 0 {
		u.kind = kindDeclarations
		src = "package snippet\n" + line + text
	} else {
		u.kind = kindStatements
		hoisted, body := splitImports(text)
		src = "package snippet\n" + line + hoisted + "func _() error {\n" +
			fmt.Sprintf("//line %s:%d\n", b.File, b.Line+strings.Count(hoisted, "\n")) + body + "\nreturn nil\n}\n"
	}
	name := path.Base(b.File) + ".go"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return nil, err
	}
	if u.fragment() {
		u.files = append(u.files, preludeFile(declared(f)))
		if src, err = addImports(src, f, names); err != nil {
			return nil, err
		}
	}
	u.files = append(u.files, srcFile{name, src})
	for _, sf := range u.files {
		f, err := parser.ParseFile(token.NewFileSet(), sf.name, sf.src, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			u.imports = append(u.imports, p)
		}
	}
	return u, nil
}

var elidedBody = regexp.MustCompile(`\{\s*\.\.\.\s*\}`)

// elide removes the marks of code left out, keeping the lines where they are.
func elide(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "..." || strings.HasPrefix(t, "... //") {
			lines[i] = ""
		}
	}
	return elidedBody.ReplaceAllString(strings.Join(lines, "\n"), "{}")
}

// isFile: the first word that is not in a comment is "package".
func isFile(text string) bool {
	for {
		text = strings.TrimLeft(text, " \t\r\n")
		switch {
		case strings.HasPrefix(text, "//"):
			_, text, _ = strings.Cut(text, "\n")
		case strings.HasPrefix(text, "/*"):
			_, text, _ = strings.Cut(text, "*/")
		default:
			return text == "package" || strings.HasPrefix(text, "package ")
		}
	}
}

// splitImports separates a statements block's leading import declarations (with the blank
// and comment lines among them) from the statements.
func splitImports(text string) (imports, body string) {
	lines := strings.Split(text, "\n")
	end := 0 // lines before end are imports
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "" || strings.HasPrefix(t, "//"):
			continue
		case strings.HasPrefix(t, "import ("):
			for i < len(lines) && strings.TrimSpace(lines[i]) != ")" {
				i++
			}
			end = i + 1
		case strings.HasPrefix(t, "import "):
			end = i + 1
		default:
			i = len(lines)
		}
	}
	if end == 0 {
		return "", text
	}
	end = min(end, len(lines))
	return strings.Join(lines[:end], "\n") + "\n", strings.Join(lines[end:], "\n")
}

// addImports adds to a fragment an import of each package it uses by a name it neither
// declares nor imports.
func addImports(src string, f *ast.File, names map[string]string) (string, error) {
	have := map[string]bool{}
	for _, spec := range f.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return "", err
		}
		have[importName(spec, p, names)] = true
	}
	var add []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Obj != nil || have[id.Name] {
			return true
		}
		if p, ok := names[id.Name]; ok {
			have[id.Name] = true
			add = append(add, fmt.Sprintf("import %s %q\n", id.Name, p))
		}
		return true
	})
	if len(add) == 0 {
		return src, nil
	}
	slices.Sort(add)
	clause, rest, _ := strings.Cut(src, "\n")
	return clause + "\n" + strings.Join(add, "") + rest, nil
}

// importName is the name an import declares: its own, or the package's name.
func importName(spec *ast.ImportSpec, importPath string, names map[string]string) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	for name, p := range names {
		if p == importPath {
			return name
		}
	}
	return path.Base(importPath)
}

// declared returns the names a file declares at its top level.
func declared(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				case *ast.TypeSpec:
					names[s.Name.Name] = true
				}
			}
		}
	}
	return names
}

// preludeFile declares the prelude's variables but those the fragment declares itself.
func preludeFile(skip map[string]bool) srcFile {
	var b strings.Builder
	b.WriteString("package snippet\n\nimport (\n\t\"context\"\n\n\t\"github.com/go-hbase/hbase\"\n\t\"github.com/go-hbase/hbase/hrpc\"\n)\n\n")
	b.WriteString("var (\n\t_ context.Context\n\t_ *hbase.Client\n\t_ *hrpc.Scan\n")
	for _, v := range prelude {
		if !skip[v.name] {
			fmt.Fprintf(&b, "\t%s %s\n", v.name, v.typ)
		}
	}
	b.WriteString(")\n")
	return srcFile{"prelude.go", b.String()}
}
