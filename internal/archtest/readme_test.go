package archtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README is the front page (what, why, the two commands, use, links): figures and long
// tables live in docs/. Under 250 lines keeps it one.
func TestREADMEIsAFrontPage(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n >= 250 {
		t.Fatalf("README.md has %d lines; want under 250 (move figures and tables to docs/)", n)
	}
}
