// Command shape prints the figures of the repository's shape that a restructuring is judged by,
// read from the source alone (go/parser, go/doc; nothing is built or run):
//
//	GOWORK=off go run ./internal/tools/shape [-dir DIR] [-type Client] [-type internal/x.T]
//
// First, for each public package of the library module (the module whose go.mod is in DIR),
// its source files and lines and its exported names as go/doc sees them. A package is public
// when no element of its import path is "internal", it is not a command (package main) and
// its non-test files declare something (benchmarks/, whose doc.go only documents tests, is
// not). Source means a .go file that is not a _test.go file and not generated (a .pb.go file
// or one with the "Code generated ... DO NOT EDIT." header); lines are newline characters,
// as wc -l counts them. "top-level" counts the top-level exported identifiers: each name of
// a const or var spec, each func (constructors included), each type; "methods" counts the
// exported methods declared on the exported types (not interface methods, not those promoted
// from embedded fields); "names" is the two together. Every non-test file of the package,
// generated or not, is read for these.
//
// Then, for each -type (default Client, the root package's), all its methods, exported or
// not, and the files they are declared in, and its fields if it is a struct (an embedded
// field counts as one).
//
// Last, the functions and methods longer than 80 lines (from the line of func to the line of
// the closing brace), outside _test.go files, generated files and testdata, longest first,
// with a count per module (over 80, and of them over 100) for the library module and each
// module nested in its tree (cmd, contrib/...).
//
// Directories named testdata or vendor, or starting with "." or "_", are not read; nor are
// files whose build constraint is "ignore". Files for other platforms are read (the figures
// do not depend on the machine). The output is sorted, so two runs on one tree are equal.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// typeFlag collects the -type values.
type typeFlag []string

func (t *typeFlag) String() string { return strings.Join(*t, ",") }

func (t *typeFlag) Set(v string) error {
	if _, _, err := splitType(v); err != nil {
		return err
	}
	*t = append(*t, v)
	return nil
}

func main() {
	dir := flag.String("dir", ".", "the directory of the library module (its go.mod)")
	var types typeFlag
	flag.Var(&types, "type", "a type whose methods to list: Name (root package) or pkgdir.Name, e.g. internal/engine.Engine; repeatable (default Client)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: shape [-dir DIR] [-type [pkgdir.]Name]...")
		os.Exit(2)
	}
	if len(types) == 0 {
		types = typeFlag{"Client"}
	}
	if err := run(os.Stdout, *dir, types); err != nil {
		fmt.Fprintln(os.Stderr, "shape:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, dir string, types []string) error {
	t, err := loadTree(dir)
	if err != nil {
		return err
	}
	if err := printPackages(w, t); err != nil {
		return err
	}
	for _, ty := range types {
		pkgDir, name, _ := splitType(ty)
		if err := printMethods(w, t, pkgDir, name); err != nil {
			return err
		}
	}
	printLongFuncs(w, t)
	return nil
}

// splitType splits "internal/engine.Engine" into ("internal/engine", "Engine") and "Client"
// into (".", "Client").
func splitType(v string) (pkgDir, name string, err error) {
	i := strings.LastIndex(v, ".")
	if i < 0 {
		pkgDir, name = ".", v
	} else {
		pkgDir, name = v[:i], v[i+1:]
	}
	if name == "" || pkgDir == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("-type %q: want Name or pkgdir.Name", v)
	}
	return pkgDir, name, nil
}
