// Package snippets checks that the Go code shown to users compiles: every ```go block of
// README.md and docs/*.md, and every code block of the package documentation of the public
// packages (every package of the repository that is not a command and not under internal/ or
// testdata/). TestSnippets runs it over the repository; `make check` runs that test with -v,
// which lists the counts and the blocks that are not Go, and `go test ./...` runs it too.
// It needs no cluster and takes seconds with a warm build cache.
//
// A Go block is one of three kinds:
//   - a file: it starts with a package clause, and is checked as it is;
//   - declarations: it parses as the top level of a file (func, var, const, type, import);
//   - statements: anything else, checked as the body of a func() error, so that it may end
//     with "return err".
//
// The last two are fragments, each checked as a package of its own, in which
//   - import declarations at the top of the block are the file's imports, and every other
//     package is imported by the name it is used by: the repository's own packages by their
//     package names (hbase, hrpc, hberr, hbasetest, faultnet, hbaseprom, hbaseotel...), and
//     the standard and third-party packages of knownPackages (fmt, time, tls, prometheus...);
//   - the variables of the prelude may be used without declaring them: ctx
//     (context.Context), client (*hbase.Client), quorum (string), table, row and fam
//     ([]byte), scan (*hrpc.Scan); a declarations block that declares one of these names
//     itself has its own;
//   - a line that is only "..." (or "..." and a comment) and the body "{ ... }" stand for
//     code left out.
//
// Every error of the type checker is a problem, "declared and not used" and "imported and not
// used" included: what a snippet declares, it uses, as the code a user copies it into must.
//
// A code block that is not Go says so explicitly, and the test lists each one. In Markdown
// that is the fence's info string: ```go is Go, any other (```sh, ```text...) is not, and a
// fence without one is an error. In a doc comment it is a directive line
//
//	//snippets:text <start>
//
// which marks the code block whose first line starts with <start>; go doc hides directive
// lines, and gofmt moves them to the end of the comment. A directive that marks no block is
// an error.
//
// Type information comes from the export data that `go list -export -deps` builds in the
// repository's workspace (go.work), so the snippets of contrib/prometheus and contrib/otel
// see those modules and their dependencies, and every snippet sees the code of this tree.
// Messages name the Markdown or Go file and line of the block.
package snippets
