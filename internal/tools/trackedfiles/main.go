// Command trackedfiles fails when git tracks a file that does not belong in the repository:
// one over 1 MiB, or an executable binary (ELF, Mach-O or PE by its first bytes, or any file
// with the executable bit that is not a #! script). It names each file and why. make check
// runs it; build output goes to ignored directories (/bin/, hbasetest/minicluster/target/).
//
//	go run ./internal/tools/trackedfiles
package main

import (
	"fmt"
	"os"
)

func main() {
	problems, err := check(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "trackedfiles:", err)
		os.Exit(1)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "trackedfiles: %d tracked file(s) do not belong in the repository (git rm --cached them; build output goes to an ignored directory)\n", len(problems))
		os.Exit(1)
	}
}
