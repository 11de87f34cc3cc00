package snippets

import (
	"fmt"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// root is the repository's root, from this package's directory.
var root = filepath.Join("..", "..", "..")

// TestSnippets checks every code block users read: README.md, docs/*.md and the package
// documentation of the public packages.
func TestSnippets(t *testing.T) {
	pkgs, blocks, problems, err := Collect(root)
	if err != nil {
		t.Fatal(err)
	}
	checked, err := Check(root, pkgs, blocks)
	if err != nil {
		t.Fatal(err)
	}
	problems = append(problems, checked...)

	var markdown, docs int
	var notGo []string
	for _, b := range blocks {
		switch {
		case !b.IsGo():
			notGo = append(notGo, b.String())
		case strings.HasSuffix(b.File, ".md"):
			markdown++
		default:
			docs++
		}
	}
	t.Logf("%d Go blocks checked (%d in Markdown, %d in the package docs of %d packages); %d blocks not Go:\n\t%s",
		markdown+docs, markdown, docs, len(pkgs), len(notGo), strings.Join(notGo, "\n\t"))
	if markdown == 0 || docs == 0 {
		t.Errorf("found %d Markdown and %d package doc Go blocks: the search is broken", markdown, docs)
	}
	found := map[string]bool{}
	for _, p := range pkgs {
		found[p.Path] = true
	}
	for _, dir := range []string{"", "/hrpc", "/hberr", "/hbasetest", "/hbasetest/faultnet", "/contrib/prometheus",
		"/contrib/otel", "/region", "/zk", "/sasl", "/cipher"} {
		if !found["github.com/go-hbase/hbase"+dir] {
			t.Errorf("the package docs of github.com/go-hbase/hbase%s were not searched", dir)
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestBrokenSnippetsFail: a block that does not compile is a problem at its own line, a
// variable or import declared and not used too; the good blocks beside them are not.
func TestBrokenSnippetsFail(t *testing.T) {
	md := "# broken\n\n```go\n" +
		"m := hbaseprom.New() // New returns two values\n" + // line 4
		"client, err := hbase.NewClient(quorum, hbase.WithHooks(m.Hooks()))\n" +
		"```\n\n```go\n" +
		"fmt.Println(user)\n" + // line 9
		"```\n\n```go\n" +
		"res, err := client.Gett(ctx, nil)\n" + // line 13
		"```\n\n```go\n" +
		"package main\n\nfunc helper() {}\n" + // line 17: no func main
		"```\n\n```go\n" +
		"import \"github.com/go-hbase/hbase/internal/pb\"\n\nvar _ pb.Action\n" + // line 23
		"```\n\n```go\n" +
		"get, err := hrpc.NewGet(table, row)\n" + // line 29
		"if err != nil {\n    return err\n}\n" +
		"res, err := client.Get(ctx, get) // res and err: declared and not used\n" + // line 33
		"```\n\n```go\n" +
		"import \"strings\"\n\nfmt.Println(row)\n" + // line 37: strings imported and not used
		"```\n\n```go\n" +
		"for row, err := range client.Scan(ctx, scan) { ... }\n" + // line 43: row and err not used
		"```\n\n```go\n" +
		"m, err := hbaseprom.New()\n" + // line 47: the good block
		"if err != nil {\n    return err\n}\n" +
		"client, err := hbase.NewClient(quorum, hbase.WithHooks(m.Hooks()))\n" +
		"if err != nil {\n    return err\n}\n" +
		"...\n" +
		"get, err := hrpc.NewGet(table, row, hrpc.Families(fam))\n" +
		"if err != nil {\n    return err\n}\n" +
		"res, err := client.Get(ctx, get)\n" +
		"if err != nil {\n    return err\n}\n" +
		"fmt.Println(len(res.Cells))\n" +
		"for row, err := range client.Scan(ctx, scan) {\n" +
		"    if err != nil {\n        return err\n    }\n" +
		"    fmt.Println(row)\n" +
		"}\n" +
		"```\n"
	blocks, problems := Markdown("broken.md", []byte(md))
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	pkgs, _, _, err := PackageDocs(root)
	if err != nil {
		t.Fatal(err)
	}
	problems, err = Check(root, pkgs, blocks)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"broken.md:4:":  "assignment mismatch: 1 variable but hbaseprom.New returns 2 values",
		"broken.md:9:":  "undefined: user",
		"broken.md:13:": "client.Gett undefined",
		"broken.md:17:": "package main without func main",
		"broken.md:23:": "internal/pb, which a user's module cannot import",
		"broken.md:33:": "declared and not used: res",
		"broken.md:37:": "\"strings\" imported and not used",
		"broken.md:43:": "declared and not used: row",
	}
	for _, p := range problems {
		t.Log(p)
	}
	for at, msg := range want {
		found := false
		for _, p := range problems {
			found = found || strings.HasPrefix(p, at) && strings.Contains(p, msg)
		}
		if !found {
			t.Errorf("no problem %s %q", at, msg)
		}
	}
	for _, p := range problems {
		var line int
		if _, err := fmt.Sscanf(strings.TrimPrefix(p, "broken.md:"), "%d", &line); err != nil || line >= 47 {
			t.Errorf("the good block failed: %s", p)
		}
	}
}

func TestMarkdownFences(t *testing.T) {
	md := "text\n```go\nx := 1\n```\n\n- item\n\n  ```text\n  out\n    more\n  ```\n" + // blocks at 3 and 9
		"inline ```code``` is no fence\n" +
		"```\nuntagged\n```\n" + // line 13
		"~~~~go\nnot closed\n```\n" // line 16
	blocks, problems := Markdown("f.md", []byte(md))
	want := []Block{
		{File: "f.md", Line: 3, Text: "x := 1", Lang: "go"},
		{File: "f.md", Line: 9, Text: "out\n  more", Lang: "text"},
	}
	if len(blocks) != len(want) {
		t.Fatalf("blocks %+v, want %+v", blocks, want)
	}
	for i := range want {
		if blocks[i] != want[i] {
			t.Errorf("block %d: %+v, want %+v", i, blocks[i], want[i])
		}
	}
	if len(problems) != 2 || !strings.HasPrefix(problems[0], "f.md:13: code fence without an info string") ||
		!strings.HasPrefix(problems[1], "f.md:16: code fence not closed") {
		t.Errorf("problems %q", problems)
	}
}

func TestDocDirectives(t *testing.T) {
	src := "// Package p does things:\n" +
		"//\n" +
		"//\tx := p.New()\n" + // line 3: Go
		"//\n" +
		"// A frame is\n" +
		"//\n" +
		"//\twrap(msg) = CTR(msg)\n" + // line 7: marked
		"//\n" +
		"//snippets:text wrap(msg)\n" +
		"//snippets:text nothing like this\n" + // line 10: marks no block
		"package p\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p/doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if text := f.Doc.Text(); strings.Contains(text, "snippets:") {
		t.Errorf("go doc shows the directive:\n%s", text)
	}
	blocks, problems := docBlocks(fset, "p/doc.go", f.Doc)
	want := []Block{
		{File: "p/doc.go", Line: 3, Text: "x := p.New()\n", Lang: "go"},
		{File: "p/doc.go", Line: 7, Text: "wrap(msg) = CTR(msg)\n", Lang: "text"},
	}
	if len(blocks) != len(want) || blocks[0] != want[0] || blocks[1] != want[1] {
		t.Errorf("blocks %+v, want %+v", blocks, want)
	}
	if len(problems) != 1 || !strings.HasPrefix(problems[0], `p/doc.go:10: "//snippets:text nothing like this" marks no code block`) {
		t.Errorf("problems %q", problems)
	}
}

func TestBuildKinds(t *testing.T) {
	names := map[string]string{"hbase": "github.com/go-hbase/hbase", "fmt": "fmt", "hbaseprom": "github.com/go-hbase/hbase/contrib/prometheus"}
	for _, tc := range []struct {
		text, kind string
		imports    []string // of the snippet's file, after the prelude's three
	}{
		{"fmt.Println(hbase.ErrClosed)", kindStatements, []string{"fmt", "github.com/go-hbase/hbase"}},
		{"import hbaseprom \"github.com/go-hbase/hbase/contrib/prometheus\"\n\nm, _ := hbaseprom.New()\nfmt.Println(m)",
			kindStatements, []string{"fmt", "github.com/go-hbase/hbase/contrib/prometheus"}},
		{"import \"github.com/go-hbase/hbase/contrib/prometheus\"\n\nm, _ := hbaseprom.New()",
			kindStatements, []string{"github.com/go-hbase/hbase/contrib/prometheus"}},
		{"var client = 1\n\nfunc f() { fmt.Println(client) }", kindDeclarations, []string{"fmt"}},
		{"// A program.\npackage main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println() }", kindFile, []string{"fmt"}},
	} {
		u, err := build(Block{File: "x.md", Line: 1, Text: tc.text, Lang: "go"}, names)
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		imports := u.imports
		if u.fragment() {
			imports = imports[3:]
			if prelude := u.files[0].src; strings.Contains(tc.text, "var client") == strings.Contains(prelude, "\tclient *hbase.Client") {
				t.Errorf("%q: prelude\n%s", tc.text, prelude)
			}
		}
		if u.kind != tc.kind || strings.Join(imports, " ") != strings.Join(tc.imports, " ") {
			t.Errorf("%q: %s importing %q, want %s importing %q", tc.text, u.kind, imports, tc.kind, tc.imports)
		}
	}
}

func TestElide(t *testing.T) {
	in := "if err != nil { ... }\n\t...\n... // and so on\nf(args...)\n"
	want := "if err != nil {}\n\n\nf(args...)\n"
	if got := elide(in); got != want {
		t.Errorf("elide(%q) = %q, want %q", in, got, want)
	}
}
