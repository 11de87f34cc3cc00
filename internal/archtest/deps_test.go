package archtest

import (
	"strings"
	"testing"
)

// heavy are the dependencies a plain client must not build: the Kerberos stack (package
// kerberos brings it, for the programs that ask) and the numeric and plotting modules an HDR
// histogram module's tests bring into a user's go mod tidy.
var heavy = []string{"github.com/jcmturner/", module + "/sasl", module + "/kerberos", "github.com/HdrHistogram/", "gonum.org/"}

// heavyDeps returns the packages of pkg's build (go list -deps) that are in heavy.
func heavyDeps(t *testing.T, root, pkg string) (found []string, all int) {
	t.Helper()
	deps := goList(t, root, "-deps", pkg)
	for _, p := range deps {
		for _, h := range heavy {
			if strings.HasPrefix(p.ImportPath, h) {
				found = append(found, p.ImportPath)
			}
		}
	}
	return found, len(deps)
}

// A service that gives no Kerberos option builds neither gokrb5 nor package sasl, nor any HDR
// histogram or numeric module; the same service with a Kerberos option builds gokrb5 (the
// control: the check sees it when it is there).
func TestPlainProgramBuildsNoKerberos(t *testing.T) {
	root := moduleRoot(t)
	found, n := heavyDeps(t, root, "./internal/archtest/testdata/plain")
	if len(found) > 0 {
		t.Errorf("a plain program builds %d packages, among them %v", n, found)
	}
	t.Logf("a plain program builds %d packages, none of %v", n, heavy)
	found, n = heavyDeps(t, root, "./internal/archtest/testdata/kerberos")
	krb := 0
	for _, p := range found {
		if strings.HasPrefix(p, "github.com/jcmturner/gokrb5/") {
			krb++
		}
	}
	if krb == 0 {
		t.Errorf("a program with a Kerberos option builds no gokrb5 package (%d packages): the check cannot see it", n)
	}
	t.Logf("with a Kerberos option: %d packages, %d of gokrb5", n, krb)
}
