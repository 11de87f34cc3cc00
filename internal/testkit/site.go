package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteSite writes a Hadoop configuration file with the given properties, in order; a key
// ending in "!" is written as final.
func WriteSite(t testing.TB, dir, name string, kv ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<configuration>\n")
	for i := 0; i+1 < len(kv); i += 2 {
		key, final := strings.CutSuffix(kv[i], "!")
		b.WriteString("  <property><name>" + key + "</name><value>" + kv[i+1] + "</value>")
		if final {
			b.WriteString("<final>true</final>")
		}
		b.WriteString("</property>\n")
	}
	b.WriteString("</configuration>\n")
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
