package endpointtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docSections are docs/admin.md's sections of the endpoint clients, whose tables (`| Java ...
// | go-hbase | proved by |`) name calls and tests that must exist.
var docSections = []string{"Coprocessor endpoints", "Visibility labels"}

var backticked = regexp.MustCompile("`([^`]+)`")

// repoDecls returns the exported declarations of the repository's packages by package name
// ("Func", "Type", "Type.Method") and the names of its test functions.
func repoDecls(t *testing.T, root string) (map[string]map[string]bool, map[string]bool) {
	t.Helper()
	decls, tests := map[string]map[string]bool{}, map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || (strings.HasPrefix(n, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := decls[f.Name.Name]
		if pkg == nil {
			pkg = map[string]bool{}
			decls[f.Name.Name] = pkg
		}
		for _, dl := range f.Decls {
			switch dl := dl.(type) {
			case *ast.FuncDecl:
				if strings.HasSuffix(path, "_test.go") {
					if dl.Recv == nil {
						tests[dl.Name.Name] = true
					}
					continue
				}
				name := dl.Name.Name
				if dl.Recv != nil && len(dl.Recv.List) == 1 {
					typ := dl.Recv.List[0].Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					if ix, ok := typ.(*ast.IndexExpr); ok { // a generic type's method
						typ = ix.X
					}
					if id, ok := typ.(*ast.Ident); ok {
						name = id.Name + "." + name
					}
				}
				pkg[name] = true
			case *ast.GenDecl:
				if strings.HasSuffix(path, "_test.go") {
					continue
				}
				for _, sp := range dl.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						pkg[sp.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							pkg[n.Name] = true
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return decls, tests
}

// TestAdminDocEndpointSections checks the rows of docs/admin.md's endpoint sections: every call
// the go-hbase cell names exists, every test the proved-by cell names exists, and a row that
// names a call names a test.
func TestAdminDocEndpointSections(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "docs", "admin.md"))
	if err != nil {
		t.Fatal(err)
	}
	decls, tests := repoDecls(t, root)
	rows := map[string]int{}
	section, inTable := "", false
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			section, inTable = strings.TrimPrefix(line, "## "), false
		case strings.HasPrefix(line, "| Java ") && strings.HasSuffix(line, " | go-hbase | proved by |"):
			inTable = true
		case inTable && strings.HasPrefix(line, "|---"):
		case inTable && strings.HasPrefix(line, "|"):
			if !containsString(docSections, section) {
				continue
			}
			rows[section]++
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			if len(cells) != 3 {
				t.Fatalf("docs/admin.md:%d: %d cells; want 3", i+1, len(cells))
			}
			call := strings.TrimSpace(cells[1])
			var calls, proved []string
			for _, m := range backticked.FindAllStringSubmatch(call, -1) {
				calls = append(calls, m[1])
			}
			for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
				proved = append(proved, m[1])
			}
			if strings.HasPrefix(call, "not planned") {
				continue
			}
			if len(calls) == 0 || len(proved) == 0 {
				t.Errorf("docs/admin.md:%d: a row without a call or a test", i+1)
			}
			for _, c := range calls {
				pkg, name, ok := strings.Cut(c, ".")
				if pkg == "Admin" {
					pkg, name = "admin", c
				}
				if !ok || !decls[pkg][name] {
					t.Errorf("docs/admin.md:%d: %s is no declaration of go-hbase", i+1, c)
				}
			}
			for _, tn := range proved {
				if !tests[tn] {
					t.Errorf("docs/admin.md:%d: no test %s in the repository", i+1, tn)
				}
			}
		default:
			inTable = false
		}
	}
	for _, s := range docSections {
		if rows[s] == 0 {
			t.Errorf("docs/admin.md: no table row in section %q", s)
		}
	}
	// The checker finds what exists and misses what does not.
	if !decls["coprocessor"]["Call"] || !decls["admin"]["Admin.CoprocessorService"] || decls["aggregate"]["NoSuch"] ||
		!tests["TestAdminDocEndpointSections"] || tests["TestNoSuchTest"] {
		t.Fatal("repoDecls misses or invents names")
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
