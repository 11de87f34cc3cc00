package securitytest

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
)

// table creates a table of the families (and table attributes, key=value) as the superuser,
// dropped when the test ends, and returns its name.
func (p principals) table(t *testing.T, families []string, attrs ...string) string {
	t.Helper()
	name := env.Name(t, "acl")
	p.createTable(t, name, families, attrs...)
	return name
}

func (p principals) createTable(t *testing.T, name string, families []string, attrs ...string) {
	t.Helper()
	opts := make([]hrpc.TableOption, 0, len(families)+len(attrs))
	for _, f := range families {
		opts = append(opts, hrpc.WithFamily(f))
	}
	for _, kv := range attrs {
		k, v, _ := strings.Cut(kv, "=")
		opts = append(opts, hrpc.TableAttribute(k, v))
	}
	desc, err := hrpc.NewTableDescriptor(name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t)
	if err := p.superAdm.CreateTable(ctx, desc); err != nil {
		t.Fatalf("creating %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = p.superAdm.DisableTable(ctx, name)
		_ = p.superAdm.DeleteTable(ctx, name)
	})
}

// put writes family:qualifier=value to row through c.
func put(ctx context.Context, c *hbase.Client, table, row, column, value string, opts ...hrpc.PutOption) error {
	fam, qual, _ := strings.Cut(column, ":")
	p, err := hrpc.NewPut(table, []byte(row), append([]hrpc.PutOption{hrpc.Value([]byte(fam), []byte(qual), []byte(value))}, opts...)...)
	if err != nil {
		return err
	}
	_, err = c.Put(ctx, p)
	return err
}

func mustPut(t *testing.T, c *hbase.Client, table, row, column, value string, opts ...hrpc.PutOption) {
	t.Helper()
	if err := put(testContext(t), c, table, row, column, value, opts...); err != nil {
		t.Fatalf("Put %s %s %s: %v", table, row, column, err)
	}
}

// read returns the cells of row as "family:qualifier=value", sorted.
func read(ctx context.Context, c *hbase.Client, table, row string, opts ...hrpc.GetOption) ([]string, error) {
	g, err := hrpc.NewGet(table, []byte(row), opts...)
	if err != nil {
		return nil, err
	}
	res, err := c.Get(ctx, g)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(res.Cells))
	for _, cell := range res.Cells {
		out = append(out, fmt.Sprintf("%s:%s=%s", cell.Family, cell.Qualifier, cell.Value))
	}
	slices.Sort(out)
	return out, nil
}

// wantRead fails the test unless c reads exactly want from row.
func wantRead(t *testing.T, c *hbase.Client, table, row string, want []string, opts ...hrpc.GetOption) {
	t.Helper()
	got, err := read(testContext(t), c, table, row, opts...)
	if err != nil {
		t.Fatalf("Get %s %s: %v; want %q", table, row, err, want)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Get %s %s = %q; want %q", table, row, got, want)
	}
}

// permLines normalises go-hbase's listing for comparison: one line per permission, sorted.
func permLines(perms []admin.UserPermission) []string {
	out := make([]string, 0, len(perms))
	for _, up := range perms {
		acts := make([]string, len(up.Actions))
		for i, a := range up.Actions {
			acts[i] = string(a)
		}
		out = append(out, permLine(up.User, up.Scope.Namespace, up.Scope.Table, up.Scope.Family, up.Scope.Qualifier, acts))
	}
	slices.Sort(out)
	return out
}

// javaPermLines normalises the Java client's listing the same way.
func javaPermLines(perms []hbasetest.JavaPermission) []string {
	out := make([]string, 0, len(perms))
	for _, jp := range perms {
		acts := slices.Clone(jp.Actions)
		order := []string{"READ", "WRITE", "EXEC", "CREATE", "ADMIN"}
		slices.SortFunc(acts, func(a, b string) int { return slices.Index(order, a) - slices.Index(order, b) })
		acts = slices.Compact(acts)
		out = append(out, permLine(jp.User, jp.Namespace, jp.Table, string(jp.Family), string(jp.Qualifier), acts))
	}
	slices.Sort(out)
	return out
}

func permLine(user, ns, table, fam, qual string, acts []string) string {
	return fmt.Sprintf("%s ns=%q table=%q family=%q qualifier=%q %s", user, ns, table, fam, qual, strings.Join(acts, ","))
}

// sameListing compares go-hbase's listing of scope with what the Java client lists for it on
// the same cluster, and returns go-hbase's.
func (p principals) sameListing(t *testing.T, scope admin.Scope, user string) []string {
	t.Helper()
	ctx := testContext(t)
	perms, err := p.superAdm.UserPermissions(ctx, scope, user)
	if err != nil {
		t.Fatalf("UserPermissions(%v, %q): %v", scope, user, err)
	}
	var regex string
	var fam, qual []byte
	switch {
	case scope.Namespace != "":
		regex = "@" + regexp.QuoteMeta(scope.Namespace)
	case scope.Table != "":
		regex = regexp.QuoteMeta(scope.Table)
		if scope.Family != "" {
			fam = []byte(scope.Family)
		}
		if scope.Qualifier != "" {
			qual = []byte(scope.Qualifier)
		}
	}
	java, err := p.cl.JavaUserPermissions(ctx, regex, fam, qual, user)
	if err != nil {
		t.Fatalf("JavaUserPermissions(%q): %v", regex, err)
	}
	got, want := permLines(perms), javaPermLines(java)
	if !slices.Equal(got, want) {
		t.Fatalf("UserPermissions(%v, %q) =\n%s\nthe Java client lists\n%s", scope, user, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return got
}

// settle is how long a grant, a revoke or a user's new labels may take to reach every
// server: the master writes them to hbase:acl (or hbase:labels), and each server's cache
// follows through a ZooKeeper watch, a moment later.
const settle = 15 * time.Second

// until calls f until it returns true, for up to settle.
func until(f func() bool) {
	for deadline := time.Now().Add(settle); !f() && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
}

// wantReadSoon is wantRead once the servers have caught up with a change of permissions or
// labels: it reads until c reads exactly want, for up to settle.
func wantReadSoon(t *testing.T, c *hbase.Client, table, row string, want []string, opts ...hrpc.GetOption) {
	t.Helper()
	until(func() bool {
		got, err := read(testContext(t), c, table, row, opts...)
		return err == nil && slices.Equal(got, want)
	})
	wantRead(t, c, table, row, want, opts...)
}

// deniedSoon reads row through c until the read is refused (a revoke has reached the
// servers), for up to settle, and checks the refusal as denied does.
func deniedSoon(t *testing.T, what string, c *hbase.Client, table, row string) {
	t.Helper()
	var err error
	until(func() bool {
		_, err = read(testContext(t), c, table, row)
		return err != nil
	})
	denied(t, what, err, "READ")
}
