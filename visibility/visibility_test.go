package visibility_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/visibility"
)

func TestValidLabel(t *testing.T) {
	for _, l := range []string{"secret", "A_b-c:d/e.f", "0", "x.y.z"} {
		if !visibility.ValidLabel(l) {
			t.Errorf("ValidLabel(%q) = false; want true", l)
		}
	}
	for _, l := range []string{"", "a b", "a&b", "a|b", "!a", "(a)", "ü", "a,b", "a\x00", "\"a\""} {
		if visibility.ValidLabel(l) {
			t.Errorf("ValidLabel(%q) = true; want false", l)
		}
	}
}

func TestOnFakeNotSupported(t *testing.T) {
	srv := fakehbase.NewServer(t)
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, errList := visibility.ListLabels(ctx, client, "")
	_, errAuths := visibility.Auths(ctx, client, "alice")
	for name, err := range map[string]error{
		"AddLabels":  visibility.AddLabels(ctx, client, "secret"),
		"SetAuths":   visibility.SetAuths(ctx, client, "alice", "secret"),
		"ClearAuths": visibility.ClearAuths(ctx, client, "alice", "secret"),
		"ListLabels": errList,
		"Auths":      errAuths,
	} {
		if !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), "VisibilityController") {
			t.Errorf("%s error = %v; want hberr.ErrNotSupported naming the VisibilityController", name, err)
		}
	}
	// What reaches the server is in its call log (the lookups of hbase:labels), so that
	// TestBadInputSendsNothing's empty log means something.
	if len(srv.CallLog()) == 0 {
		t.Fatal("the call log is empty")
	}
}

func TestBadInputSendsNothing(t *testing.T) {
	srv := fakehbase.NewServer(t)
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, errAuths := visibility.Auths(ctx, client, "")
	cases := []struct {
		name  string
		err   error
		label string // the label the error names, when one
		want  error
	}{
		{"illegal character", visibility.AddLabels(ctx, client, "ok", "a b"), "a b", hberr.ErrInvalidLabel},
		{"empty label", visibility.AddLabels(ctx, client, ""), "", hberr.ErrInvalidLabel},
		{"no label", visibility.AddLabels(ctx, client), "", hberr.ErrBadRequest},
		{"twice", visibility.AddLabels(ctx, client, "a", "a"), "a", hberr.ErrBadRequest},
		{"illegal auth", visibility.SetAuths(ctx, client, "alice", "a&b"), "a&b", hberr.ErrInvalidLabel},
		{"no user", visibility.SetAuths(ctx, client, "", "a"), "", hberr.ErrBadRequest},
		{"no user to clear", visibility.ClearAuths(ctx, client, "", "a"), "", hberr.ErrBadRequest},
		{"no user's auths", errAuths, "", hberr.ErrBadRequest},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) || !errors.Is(c.err, hberr.ErrBadRequest) {
			t.Errorf("%s: error = %v; want %v (and hberr.ErrBadRequest)", c.name, c.err, c.want)
			continue
		}
		if c.label != "" {
			le, ok := errors.AsType[*hberr.LabelError](c.err)
			if !ok || le.Label != c.label {
				t.Errorf("%s: error = %v; want an *hberr.LabelError naming %q", c.name, c.err, c.label)
			}
		}
	}
	if n := len(srv.CallLog()); n != 0 {
		t.Fatalf("%d calls reached the server; want none: %v", n, srv.CallLog())
	}
}
