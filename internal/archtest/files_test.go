package archtest

import (
	"bufio"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The file table: the section "## Files" of docs/architecture.md is tables whose first cell
// names source files in backquotes, by path from the repository root (a cell may name several,
// and a name may be a pattern of path.Match, `hrpc/filter*.go`). Every Go source file of the
// repository (the library, the tools, the adapters; not tests, generated code or test data)
// must be named by a row, and every name must be a file of the tree. Elsewhere in the document
// a backquoted name ending in .go must be a file too: a path from the root, or a file name
// that some file of the tree has.

// fileRow is one row of the file table: the names of its first cell.
type fileRow struct {
	line  int
	names []string
}

// readFiles parses the file table and every other backquoted .go name of the document.
func readFiles(t *testing.T, root string) (rows []fileRow, mentions map[string]int) {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mentions = make(map[string]int)
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Files"
			continue
		}
		first := ""
		if in && strings.HasPrefix(line, "| `") {
			first = strings.SplitN(strings.Trim(line, "| "), " | ", 2)[0]
			var r fileRow
			for _, m := range ticked.FindAllStringSubmatch(first, -1) {
				r.line = n
				r.names = append(r.names, m[1])
			}
			rows = append(rows, r)
		}
		// The first cell of a file table row names files (patterns too); the rest of the line
		// is prose, whose .go names must be files.
		for _, m := range ticked.FindAllStringSubmatch(strings.Replace(line, first, "", 1), -1) {
			if strings.HasSuffix(m[1], ".go") && !strings.ContainsAny(m[1], " (") {
				if _, ok := mentions[m[1]]; !ok {
					mentions[m[1]] = n
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows, mentions
}

// sourceFiles lists the Go source files of the tree, by path from its root: not tests, not
// generated code, not test data, not the tools' work trees.
func sourceFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "target") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, ".pb.go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// checkFiles reports the files no row names, the names that are no file, and the mentions
// elsewhere of files that do not exist.
func checkFiles(rows []fileRow, mentions map[string]int, files []string) []string {
	var problems []string
	named := make(map[string]bool)
	for _, r := range rows {
		for _, n := range r.names {
			matched := false
			for _, f := range files {
				if ok, _ := path.Match(n, f); ok {
					named[f], matched = true, true
				}
			}
			if !matched {
				problems = append(problems, "docs/architecture.md:"+itoa(r.line)+": the file table names "+n+", which is no source file")
			}
		}
	}
	for _, f := range files {
		if !named[f] {
			problems = append(problems, "docs/architecture.md: no row of the file table names "+f)
		}
	}
	base := make(map[string]bool)
	for _, f := range files {
		base[path.Base(f)] = true
	}
	var names []string
	for n := range mentions {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if !slices.Contains(files, n) && !(!strings.Contains(n, "/") && base[n]) && !testFile(n) {
			problems = append(problems, "docs/architecture.md:"+itoa(mentions[n])+": "+n+" is no file of the tree")
		}
	}
	return problems
}

// testFile reports whether n names a test file: the document names tests where it says what
// they check; they are not in the file table.
func testFile(n string) bool { return strings.HasSuffix(n, "_test.go") }

func itoa(n int) string { return strconv.Itoa(n) }

// TestFileTable checks the file table and the document's file names against the tree.
func TestFileTable(t *testing.T) {
	root := moduleRoot(t)
	rows, mentions := readFiles(t, root)
	if len(rows) == 0 {
		t.Fatal("docs/architecture.md: no file table under \"## Files\"")
	}
	for _, p := range checkFiles(rows, mentions, sourceFiles(t, root)) {
		t.Error(p)
	}
}

// checkFiles reports each kind of drift between a file table and the tree.
func TestCheckFilesCatchesDrift(t *testing.T) {
	files := []string{"a.go", "p/b.go", "p/c_one.go", "p/c_two.go", "q/d.go"}
	rows := []fileRow{{line: 3, names: []string{"a.go", "p/c_*.go"}}, {line: 4, names: []string{"p/gone.go"}}}
	mentions := map[string]int{"b.go": 7, "q/old.go": 8, "x_test.go": 9}
	want := []string{
		"docs/architecture.md:4: the file table names p/gone.go, which is no source file",
		"docs/architecture.md: no row of the file table names p/b.go",
		"docs/architecture.md: no row of the file table names q/d.go",
		"docs/architecture.md:8: q/old.go is no file of the tree",
	}
	if got := checkFiles(rows, mentions, files); !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
