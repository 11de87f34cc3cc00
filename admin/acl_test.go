package admin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
)

// Bad input to the access control calls fails before anything is sent: on a closed client
// anything sent would fail with hberr.ErrClosed instead. Each error names the call, the user
// and scope, and what was wrong.
func TestACLBadInput(t *testing.T) {
	c, err := hbase.NewClient("127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	a := New(c)
	ctx := context.Background()
	read := []Action{ActionRead}
	for _, tc := range []struct {
		name string
		call func() error
		want []string
		is   error
	}{
		{"unknown action", func() error {
			return a.Grant(ctx, "guest", Permission{Scope: Scope{Table: "t"}, Actions: []Action{"READX"}})
		}, []string{`Grant "guest on table t"`, `unknown action "READX"`}, hberr.ErrBadRequest},
		{"no action", func() error { return a.Grant(ctx, "guest", Permission{}) },
			[]string{`Grant "guest on global"`, "without an action"}, hberr.ErrBadRequest},
		{"empty user", func() error { return a.Grant(ctx, "", Permission{Actions: read}) },
			[]string{"empty user name"}, hberr.ErrBadRequest},
		{"empty group", func() error { return a.Revoke(ctx, "@", Permission{Actions: read}) },
			[]string{`Revoke "@ on global"`, "empty group name"}, hberr.ErrBadRequest},
		{"family without table", func() error {
			return a.Grant(ctx, "guest", Permission{Scope: Scope{Family: "f"}, Actions: read})
		}, []string{"names no table"}, hberr.ErrBadRequest},
		{"namespace and table", func() error {
			_, err := a.UserPermissions(ctx, Scope{Namespace: "ns", Table: "t"}, "")
			return err
		}, []string{"UserPermissions", "not both"}, hberr.ErrBadRequest},
		{"bad table name", func() error {
			return a.Grant(ctx, "guest", Permission{Scope: Scope{Table: "a b"}, Actions: read})
		}, []string{"illegal character"}, hberr.ErrInvalidName},
		{"nil option", func() error { return a.Grant(ctx, "guest", Permission{Actions: read}, nil) },
			[]string{"nil GrantOption"}, hberr.ErrBadRequest},
		{"nothing to check", func() error { _, err := a.HasPermissions(ctx, "guest"); return err },
			[]string{`HasPermissions "guest"`, "no permission to check"}, hberr.ErrBadRequest},
		{"bad permission to check", func() error {
			_, err := a.HasPermissions(ctx, "", Permission{Scope: Scope{Table: "t"}, Actions: []Action{"root"}})
			return err
		}, []string{`HasPermissions "caller"`, "table t", `unknown action "root"`}, hberr.ErrBadRequest},
	} {
		err := tc.call()
		if !errors.Is(err, tc.is) || errors.Is(err, hberr.ErrClosed) {
			t.Errorf("%s: %v; want %v before anything is sent", tc.name, err, tc.is)
			continue
		}
		if _, ok := errors.AsType[*hberr.AdminError](err); !ok {
			t.Errorf("%s: %T is no *hberr.AdminError", tc.name, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", tc.name, err, w)
			}
		}
	}
	// A good request does reach the (closed) client.
	if err := a.Grant(ctx, "guest", Permission{Actions: read}); !errors.Is(err, hberr.ErrClosed) {
		t.Errorf("Grant on a closed client = %v; want hberr.ErrClosed", err)
	}
}

// fakehbase has no AccessController: every access control call is hberr.ErrNotSupported.
func TestACLOnFakeHBase(t *testing.T) {
	srv := fakehbase.NewServer(t)
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a := New(c)
	ctx := context.Background()
	p := Permission{Actions: []Action{ActionRead}}
	_, lerr := a.UserPermissions(ctx, Scope{}, "")
	_, herr := a.HasPermissions(ctx, "", p)
	for name, err := range map[string]error{
		"Grant":           a.Grant(ctx, "guest", p),
		"Revoke":          a.Revoke(ctx, "guest", p),
		"UserPermissions": lerr,
		"HasPermissions":  herr,
	} {
		if !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), "MasterService.") {
			t.Errorf("%s on fakehbase: %v; want hberr.ErrNotSupported naming the method", name, err)
		}
	}
}
