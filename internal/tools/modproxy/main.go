// Command modproxy writes a Go module proxy (GOPROXY=file://DIR) holding every module of this
// repository at one version, built from the files git tracks or would track (tracked plus
// untracked files that .gitignore does not exclude), so a module outside the tree can `go get`
// the release before it is tagged. .ci/consumer uses it; `make check` runs that.
//
//	go run ./internal/tools/modproxy -version v0.1.0 -out /tmp/proxy
//
// Each module gets $out/<module>/@v/{list,<version>.info,<version>.mod,<version>.zip}, the
// layout `go help goproxy` describes. A module's zip holds the files of its directory minus
// nested modules (cmd/, contrib/*), as the go command builds it from a tag; the go command
// checks the zip's layout when it extracts it, so a wrong zip fails the consumer's build.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	version := flag.String("version", "", "the version every module is published at, e.g. v0.1.0")
	out := flag.String("out", "", "the proxy directory to write (created; existing modules' files are replaced)")
	root := flag.String("root", ".", "a directory of the git work tree to publish")
	flag.Parse()
	if *version == "" || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: modproxy -version vX.Y.Z -out DIR [-root DIR]")
		os.Exit(2)
	}
	mods, err := publish(*root, *out, *version)
	if err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
	for _, m := range mods {
		fmt.Printf("%s@%s: %d files\n", m.Path, *version, len(m.Files))
	}
}
