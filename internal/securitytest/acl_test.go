package securitytest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// hostile is a column whose qualifier holds NUL, ')' and the ',' that separates user, family
// and qualifier in hbase:acl's column names. (Bytes that are not UTF-8 cannot be granted:
// TestACLBadInputChangesNothing.)
const hostile = "b:,\x00)é"

var (
	actRead = []admin.Action{admin.ActionRead}
	actRW   = []admin.Action{admin.ActionRead, admin.ActionWrite}
)

// denied fails the test unless err is a permission refusal of the guest for action.
func denied(t *testing.T, what string, err error, action string) {
	t.Helper()
	if !errors.Is(err, hberr.ErrPermissionDenied) {
		t.Fatalf("%s: %v; want hberr.ErrPermissionDenied", what, err)
	}
	d, ok := hberr.Denied(err)
	if !ok || !strings.HasPrefix(d.User, "guest") || d.Action != action {
		t.Fatalf("%s: Denied = %+v, %v from %q; want the guest refused %s", what, d, ok, err, action)
	}
}

// The guest cannot read a table; after a grant of READ on it, it can, and still cannot
// write; after the revoke it is refused again, with hberr.ErrPermissionDenied naming it.
func TestGrantRevokeTable(t *testing.T) {
	p := clients(t)
	ctx := testContext(t)
	tb := p.table(t, []string{"f"})
	mustPut(t, p.super, tb, "r", "f:q", "v")

	_, err := read(ctx, p.guest, tb, "r")
	denied(t, "Get before the grant", err, "READ")
	t.Logf("the guest's Get before the grant: %v", err)

	scope := admin.Scope{Table: tb}
	if err := p.superAdm.Grant(ctx, "guest", admin.Permission{Scope: scope, Actions: actRead}); err != nil {
		t.Fatalf("Grant: %v", err)
	}
	wantReadSoon(t, p.guest, tb, "r", []string{"f:q=v"})
	denied(t, "Put with READ only", put(ctx, p.guest, tb, "r", "f:q", "guest's"), "WRITE")
	if got := p.sameListing(t, scope, ""); !slices.Contains(got, permLine("guest", "", tb, "", "", []string{"READ"})) {
		t.Fatalf("listing %q lacks the guest's READ", got)
	}

	// Merge (the default) adds WRITE; ReplaceExisting replaces the actions.
	if err := p.superAdm.Grant(ctx, "guest", admin.Permission{Scope: scope, Actions: []admin.Action{admin.ActionWrite}}); err != nil {
		t.Fatal(err)
	}
	until(func() bool { return put(ctx, p.guest, tb, "r", "f:q", "guest's") == nil })
	mustPut(t, p.guest, tb, "r", "f:q", "guest's")
	p.sameListing(t, scope, "guest")
	if err := p.superAdm.Grant(ctx, "guest", admin.Permission{Scope: scope, Actions: actRead}, admin.ReplaceExisting()); err != nil {
		t.Fatal(err)
	}
	var err2 error
	until(func() bool { err2 = put(ctx, p.guest, tb, "r", "f:q", "x"); return err2 != nil })
	denied(t, "Put after READ replaced READ and WRITE", err2, "WRITE")

	if err := p.superAdm.Revoke(ctx, "guest", admin.Permission{Scope: scope, Actions: actRead}); err != nil {
		t.Fatalf("Revoke: %v", err)
	}
	deniedSoon(t, "Get after the revoke", p.guest, tb, "r")
	if got := p.sameListing(t, scope, "guest"); len(got) != 0 {
		t.Fatalf("the guest's permissions after the revoke: %q", got)
	}
}

// Each scope shown by its effect: a group's grant, a namespace's, a family's and a
// qualifier's, and a global one; each listing equal to the Java client's; HasPermissions
// agreeing with what the guest could do.
func TestGrantScopes(t *testing.T) {
	p := clients(t)
	ctx := testContext(t)
	tb := p.table(t, []string{"a", "b"})
	// b's second qualifier is binary, with the ',' hbase:acl's column names use as separator.
	for _, c := range []string{"a:q1", "a:q2", "b:q1", hostile} {
		mustPut(t, p.super, tb, "r", c, "v")
	}
	// grant grants, and revokes again when the subtest ends, even failed, so that no
	// permission outlives it; revoke revokes now and compares the listings.
	grant := func(t *testing.T, user string, s admin.Scope, acts []admin.Action) {
		t.Helper()
		if err := p.superAdm.Grant(ctx, user, admin.Permission{Scope: s, Actions: acts}); err != nil {
			t.Fatalf("Grant %s %v: %v", user, s, err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_ = p.superAdm.Revoke(ctx, user, admin.Permission{Scope: s})
		})
	}
	revoke := func(t *testing.T, user string, s admin.Scope) {
		t.Helper()
		if err := p.superAdm.Revoke(ctx, user, admin.Permission{Scope: s}); err != nil {
			t.Fatalf("Revoke %s %v: %v", user, s, err)
		}
		p.sameListing(t, s, "")
	}
	all := []string{"a:q1=v", "a:q2=v", hostile + "=v", "b:q1=v"}

	t.Run("group", func(t *testing.T) {
		s := admin.Scope{Table: tb}
		grant(t, "@"+guestGroup, s, actRead)
		wantReadSoon(t, p.guest, tb, "r", all)
		p.sameListing(t, s, "")
		var has []bool
		var err error
		until(func() bool { // the master's cache follows hbase:acl as the servers' do
			has, err = p.superAdm.HasPermissions(ctx, "guest", admin.Permission{Scope: s, Actions: actRead},
				admin.Permission{Scope: s, Actions: []admin.Action{admin.ActionWrite}})
			return err == nil && slices.Equal(has, []bool{true, false})
		})
		if err != nil || !slices.Equal(has, []bool{true, false}) {
			t.Fatalf("HasPermissions(guest, READ, WRITE on %s) = %v, %v; want [true false]", tb, has, err)
		}
		revoke(t, "@"+guestGroup, s)
		deniedSoon(t, "Get after the group's revoke", p.guest, tb, "r")
	})
	t.Run("family", func(t *testing.T) {
		s := admin.Scope{Table: tb, Family: "a"}
		grant(t, "guest", s, actRead)
		wantReadSoon(t, p.guest, tb, "r", []string{"a:q1=v", "a:q2=v"})
		p.sameListing(t, s, "")
		p.sameListing(t, admin.Scope{Table: tb}, "")
		revoke(t, "guest", s)
	})
	t.Run("qualifier", func(t *testing.T) {
		for _, col := range []string{"a:q2", hostile} {
			fam, qual, _ := strings.Cut(col, ":")
			s := admin.Scope{Table: tb, Family: fam, Qualifier: qual}
			grant(t, "guest", s, actRead)
			wantReadSoon(t, p.guest, tb, "r", []string{col + "=v"})
			p.sameListing(t, s, "")
			p.sameListing(t, admin.Scope{Table: tb}, "guest")
			revoke(t, "guest", s)
		}
	})
	t.Run("namespace", func(t *testing.T) {
		ns := env.Name(t, "ns")
		if err := p.superAdm.CreateNamespace(ctx, &hrpc.NamespaceDescriptor{Name: ns}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { // after the table's cleanup, registered later
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_ = p.superAdm.DeleteNamespace(ctx, ns)
		})
		nt := ns + ":t"
		p.createTable(t, nt, []string{"f"})
		mustPut(t, p.super, nt, "r", "f:q", "v")
		_, err := read(ctx, p.guest, nt, "r")
		denied(t, "Get before the namespace grant", err, "READ")
		s := admin.Scope{Namespace: ns}
		grant(t, "guest", s, actRead)
		wantReadSoon(t, p.guest, nt, "r", []string{"f:q=v"})
		p.sameListing(t, s, "")
		var has []bool
		until(func() bool {
			has, err = p.guestAdm.HasPermissions(ctx, "", admin.Permission{Scope: admin.Scope{Table: nt}, Actions: actRead})
			return err == nil && slices.Equal(has, []bool{true})
		})
		if err != nil || !slices.Equal(has, []bool{true}) {
			t.Fatalf("the guest's HasPermissions(READ on %s) = %v, %v; want [true] through the namespace", nt, has, err)
		}
		revoke(t, "guest", s)
		deniedSoon(t, "Get after the namespace revoke", p.guest, nt, "r")
	})
	t.Run("global", func(t *testing.T) {
		grant(t, "guest", admin.Scope{}, actRead)
		wantReadSoon(t, p.guest, tb, "r", all)
		got := p.sameListing(t, admin.Scope{}, "")
		// The global listing names the superusers with every action, as the Java client's does.
		if !slices.Contains(got, permLine("client", "", "", "", "", []string{"READ", "WRITE", "EXEC", "CREATE", "ADMIN"})) {
			t.Errorf("global listing %q does not name the client principal as a superuser", got)
		}
		p.sameListing(t, admin.Scope{}, "guest")
		revoke(t, "guest", admin.Scope{})
		deniedSoon(t, "Get after the global revoke", p.guest, tb, "r")
	})
}

// Bad input: an error that names what was wrong, and the permissions as they were.
func TestACLBadInputChangesNothing(t *testing.T) {
	p := clients(t)
	ctx := testContext(t)
	tb := p.table(t, []string{"f"})
	if err := p.superAdm.Grant(ctx, "guest", admin.Permission{Scope: admin.Scope{Table: tb}, Actions: actRead}); err != nil {
		t.Fatal(err)
	}
	before := p.sameListing(t, admin.Scope{Table: tb}, "")
	global := p.sameListing(t, admin.Scope{}, "")
	for _, tc := range []struct {
		name string
		err  error
		is   error
		says string
	}{
		{"unknown action", p.superAdm.Grant(ctx, "guest", admin.Permission{Scope: admin.Scope{Table: tb}, Actions: []admin.Action{"READX"}}),
			hberr.ErrBadRequest, `unknown action "READX"`},
		{"empty user", p.superAdm.Grant(ctx, "", admin.Permission{Scope: admin.Scope{Table: tb}, Actions: actRead}),
			hberr.ErrBadRequest, "empty user name"},
		{"missing table", p.superAdm.Grant(ctx, "guest", admin.Permission{Scope: admin.Scope{Table: tb + "_missing"}, Actions: actRead}),
			hberr.ErrTableNotFound, tb + "_missing"},
		{"missing family", p.superAdm.Grant(ctx, "guest", admin.Permission{Scope: admin.Scope{Table: tb, Family: "nofam"}, Actions: actRead}),
			hberr.ErrNoSuchFamily, `no family "nofam"`},
		{"qualifier not UTF-8", p.superAdm.Grant(ctx, "guest", admin.Permission{Scope: admin.Scope{Table: tb, Family: "f", Qualifier: "q\xff"}, Actions: actRead}),
			hberr.ErrBadRequest, "not UTF-8"},
		{"missing namespace", p.superAdm.Grant(ctx, "guest", admin.Permission{Scope: admin.Scope{Namespace: "nons"}, Actions: actRead}),
			hberr.ErrNamespaceNotFound, "nons"},
		{"grant by the guest", p.guestAdm.Grant(ctx, "guest", admin.Permission{Scope: admin.Scope{Table: tb}, Actions: actRW}),
			hberr.ErrPermissionDenied, "guest"},
		{"global grant by the guest", p.guestAdm.Grant(ctx, "guest", admin.Permission{Actions: actRead}),
			hberr.ErrPermissionDenied, "action=ADMIN"},
		{"revoke by the guest", p.guestAdm.Revoke(ctx, "guest", admin.Permission{Scope: admin.Scope{Table: tb}}),
			hberr.ErrPermissionDenied, "guest"},
	} {
		if !errors.Is(tc.err, tc.is) || !strings.Contains(tc.err.Error(), tc.says) {
			t.Errorf("%s: %v; want %v saying %q", tc.name, tc.err, tc.is, tc.says)
		}
		t.Logf("%s: %v", tc.name, tc.err)
	}
	if after := p.sameListing(t, admin.Scope{Table: tb}, ""); !slices.Equal(after, before) {
		t.Errorf("table permissions changed by refused calls:\nbefore %q\nafter  %q", before, after)
	}
	if after := p.sameListing(t, admin.Scope{}, ""); !slices.Equal(after, global) {
		t.Errorf("global permissions changed by refused calls:\nbefore %q\nafter  %q", global, after)
	}
	_, err := p.guestAdm.UserPermissions(ctx, admin.Scope{Table: tb}, "")
	if !errors.Is(err, hberr.ErrPermissionDenied) {
		t.Errorf("the guest's UserPermissions: %v; want hberr.ErrPermissionDenied", err)
	}
}
