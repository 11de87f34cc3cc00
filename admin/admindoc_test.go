package admin

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// docs/admin.md's tables of the Java Admin: | Java Admin / AsyncAdmin | go-hbase | proved by |.
// Tables of other Java classes have the header | Java <class> | go-hbase | proved by |: their
// calls and tests are checked the same way, their Java names are not the Admin's.
const adminDocHeader = "| Java Admin / AsyncAdmin | go-hbase | proved by |"

// isDocTableHeader reports whether line heads a table of docs/admin.md.
func isDocTableHeader(line string) bool {
	return strings.HasPrefix(line, "| Java ") && strings.HasSuffix(line, " | go-hbase | proved by |")
}

// adminDocRow is one row of docs/admin.md's tables.
type adminDocRow struct {
	line         int
	section      string
	admin        bool     // a row of a table of the Java Admin's methods
	java         []string // the Java method names of the first cell
	calls        []string // the calls the second cell names in backticks
	planned, not bool     // "planned: ..." or "not planned: ..."
	tests        []string // the tests of the third cell
}

var backticked = regexp.MustCompile("`([^`]+)`")

// readAdminDoc reads the rows of every table of docs/admin.md.
func readAdminDoc(t *testing.T) []adminDocRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "admin.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []adminDocRow
	section, inTable, adminTable := "", false, false
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			section, inTable = strings.TrimPrefix(line, "## "), false
		case isDocTableHeader(line):
			inTable, adminTable = true, line == adminDocHeader
		case inTable && strings.HasPrefix(line, "|---"):
		case inTable && strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			if len(cells) != 3 {
				t.Fatalf("docs/admin.md:%d: %d cells; want 3", i+1, len(cells))
			}
			r := adminDocRow{line: i + 1, section: section, admin: adminTable}
			for _, m := range backticked.FindAllStringSubmatch(cells[0], -1) {
				r.java = append(r.java, m[1])
			}
			call := strings.TrimSpace(cells[1])
			r.planned = strings.HasPrefix(call, "planned: ")
			r.not = strings.HasPrefix(call, "not planned: ")
			for _, m := range backticked.FindAllStringSubmatch(call, -1) {
				r.calls = append(r.calls, m[1])
			}
			for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
				r.tests = append(r.tests, m[1])
			}
			rows = append(rows, r)
		default:
			inTable = false
		}
	}
	if len(rows) == 0 {
		t.Fatal("docs/admin.md: no table row")
	}
	return rows
}

// moduleDecls are the exported declarations of the module's packages, by package name:
// "Func", "Type", "Type.Method".
func moduleDecls(t *testing.T) (decls map[string]map[string]bool, tests map[string]bool) {
	t.Helper()
	decls, tests = map[string]map[string]bool{}, map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || strings.HasPrefix(n, ".") && path != ".." {
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
		if strings.HasSuffix(path, "_test.go") {
			for _, dl := range f.Decls {
				if fd, ok := dl.(*ast.FuncDecl); ok && fd.Recv == nil {
					tests[fd.Name.Name] = true
				}
			}
			return nil
		}
		pkg := decls[f.Name.Name]
		if pkg == nil {
			pkg = map[string]bool{}
			decls[f.Name.Name] = pkg
		}
		for _, dl := range f.Decls {
			switch dl := dl.(type) {
			case *ast.FuncDecl:
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

var javaName = regexp.MustCompile(`^[a-z][A-Za-z]*$`)

// docs/admin.md names calls and tests that exist, and every method of *Admin.
func TestAdminDocTables(t *testing.T) {
	rows := readAdminDoc(t)
	decls, tests := moduleDecls(t)
	named := map[string]bool{}
	for _, r := range rows {
		if len(r.java) == 0 && r.admin {
			t.Errorf("docs/admin.md:%d: no Java method in backticks", r.line)
		}
		for _, j := range r.java {
			if r.admin && !javaName.MatchString(j) {
				t.Errorf("docs/admin.md:%d: %q is not a Java method name", r.line, j)
			}
		}
		if !r.planned && !r.not && len(r.calls) == 0 {
			t.Errorf("docs/admin.md:%d: the go-hbase cell names no call and is not \"not planned: ...\" or \"planned: ...\"", r.line)
		}
		if !r.planned && !r.not && len(r.tests) == 0 {
			t.Errorf("docs/admin.md:%d: no test proves %v", r.line, r.calls)
		}
		for _, c := range r.calls {
			pkg, name, ok := strings.Cut(c, ".")
			if pkg == "Admin" {
				pkg, name = "admin", c
			}
			if !ok || decls[pkg] == nil || !decls[pkg][name] {
				t.Errorf("docs/admin.md:%d: %s is no call of go-hbase", r.line, c)
			}
			if pkg == "admin" {
				named[name] = true
			}
		}
		for _, tn := range r.tests {
			if !tests[tn] {
				t.Errorf("docs/admin.md:%d: no test %s in the repository", r.line, tn)
			}
		}
	}
	at := reflect.TypeFor[*Admin]()
	for i := range at.NumMethod() {
		if m := at.Method(i).Name; !named["Admin."+m] {
			t.Errorf("docs/admin.md: no row names Admin.%s", m)
		}
	}
}

// The checker catches what it is for.
func TestAdminDocTablesCatch(t *testing.T) {
	decls, tests := moduleDecls(t)
	if !decls["admin"]["Admin.CreateTable"] || !decls["hrpc"]["KeyRangeSplits"] || !decls["hbase"]["Client.Close"] ||
		decls["admin"]["Admin.NoSuchCall"] || !tests["TestAdminDocTables"] || tests["TestNoSuchTest"] {
		t.Fatal("moduleDecls misses or invents names")
	}
}
