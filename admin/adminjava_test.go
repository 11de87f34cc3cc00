package admin

import (
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/internal/testkit"
)

// Every method of HBase's Java Admin and AsyncAdmin (listed by reflection in a JVM of the
// launcher's class path, no cluster) is in a row of docs/admin.md, and every Java name a row
// gives is one of theirs.
func TestAdminDocCoversJavaAdmin(t *testing.T) {
	if hbasetest.Skipped() {
		t.Skip("needs a JVM (-short or GOHBASE_SKIP_CLUSTER=1)")
	}
	ctx := testkit.Context(t, 5*time.Minute)
	methods, err := hbasetest.JavaAdminMethods(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	rows := readAdminDoc(t)
	inDoc := map[string]int{}
	for _, r := range rows {
		if !r.admin {
			continue // a table of another Java class
		}
		for _, j := range r.java {
			inDoc[j] = r.line
		}
	}
	java := map[string]bool{}
	deprecated := 0
	for _, m := range methods {
		java[m.Name] = true
		if m.Deprecated {
			deprecated++
		}
		if _, ok := inDoc[m.Name]; !ok {
			what := ""
			if m.Deprecated {
				what = " (deprecated)"
			}
			t.Errorf("docs/admin.md: no row names %s.%s%s", m.Interface, m.Name, what)
		}
	}
	for name, line := range inDoc {
		if !java[name] {
			t.Errorf("docs/admin.md:%d: %s is no method of the Java Admin or AsyncAdmin", line, name)
		}
	}
	t.Logf("%d Java methods (%d deprecated in all their overloads), all in docs/admin.md's %d rows", len(methods), deprecated, len(rows))
	if len(methods) < 100 || !strings.Contains(methods[0].Interface, "Admin") {
		t.Fatalf("%d Java methods; want the Admin's (over 100)", len(methods))
	}
}
