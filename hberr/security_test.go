package hberr

import (
	"errors"
	"fmt"
	"testing"
)

const accessDenied = "org.apache.hadoop.hbase.security.AccessDeniedException"

func TestPermissionDeniedClass(t *testing.T) {
	err := error(NewRemoteError(accessDenied, accessDenied+": Insufficient permissions for user 'guest' (table=t1, action=READ)\n\tat x", true))
	if !errors.Is(err, ErrPermissionDenied) || !errors.Is(err, ErrDoNotRetry) {
		t.Fatalf("AccessDeniedException = %v; want ErrPermissionDenied and ErrDoNotRetry", err)
	}
	if errors.Is(err, ErrRetryable) || IsRetryable(err) {
		t.Fatalf("AccessDeniedException is retryable: %v", err)
	}
	other := NewRemoteError("org.apache.hadoop.hbase.DoNotRetryIOException", "no", true)
	if errors.Is(other, ErrPermissionDenied) {
		t.Fatalf("DoNotRetryIOException = ErrPermissionDenied")
	}
}

func TestVisibilityLabelClass(t *testing.T) {
	const class = "org.apache.hadoop.hbase.exceptions.FailedSanityCheckException"
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{class + ": Invalid visibility label secretx\n\tat x", true},
		{class + ": Invalid visibility label \"a, b\"", true},
		{class + ": Requested row out of range", false},
		{class + ": Mutation contains cell with reserved type tag", false},
	} {
		err := NewRemoteError(class, tc.msg, true)
		if got := errors.Is(err, ErrVisibilityLabel); got != tc.want {
			t.Errorf("%q: ErrVisibilityLabel = %v; want %v", tc.msg, got, tc.want)
		}
		if !errors.Is(err, ErrDoNotRetry) {
			t.Errorf("%q: not ErrDoNotRetry", tc.msg)
		}
	}
	// The same message under another class is not a label refusal.
	if errors.Is(NewRemoteError("java.io.IOException", "Invalid visibility label x", false), ErrVisibilityLabel) {
		t.Errorf("an IOException is ErrVisibilityLabel")
	}
}

func TestDenied(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		want      Denial
		ok        bool
	}{
		{"read of a table", "Insufficient permissions for user 'guest' (table=t1, action=READ)",
			Denial{User: "guest", Scope: "t1", Action: "READ"}, true},
		{"global", "Insufficient permissions for user 'guest' (global, action=ADMIN)",
			Denial{User: "guest", Scope: "GLOBAL", Action: "ADMIN"}, true},
		{"context with family and params",
			"Insufficient permissions (user=guest@EXAMPLE.COM, scope=ns:t, family=f:q, params=[table=ns:t,family=f:q],action=WRITE)",
			Denial{User: "guest@EXAMPLE.COM", Scope: "ns:t", Family: "f:q", Action: "WRITE"}, true},
		{"context without family",
			"Insufficient permissions (user=guest@EXAMPLE.COM, scope=GLOBAL, params=[namespace=,],action=ADMIN)",
			Denial{User: "guest@EXAMPLE.COM", Scope: "GLOBAL", Action: "ADMIN"}, true},
		{"context, family, no params",
			"Insufficient permissions (user=guest, scope=default:t, family=f, action=READ)",
			Denial{User: "guest", Scope: "default:t", Family: "f", Action: "READ"}, true},
		{"namespace", "Insufficient permissions (user=guest, scope=shop, params=[namespace=shop],action=CREATE)",
			Denial{User: "guest", Scope: "shop", Action: "CREATE"}, true},
		// Families and qualifiers are arbitrary bytes: ", " and ")" and "action=" inside them.
		{"hostile family",
			"Insufficient permissions (user=guest, scope=t, family=a, b)=x|f:action=q, params=[table=t,family=a, b)=x],action=READ)",
			Denial{User: "guest", Scope: "t", Family: "a, b)=x|f:action=q", Action: "READ"}, true},
		{"hostile family without params",
			"Insufficient permissions (user=guest, scope=t, family=x, y, action=READ)",
			Denial{User: "guest", Scope: "t", Family: "x, y", Action: "READ"}, true},
		{"user with a quote", "Insufficient permissions for user 'o'brien' (table=t, action=WRITE)",
			Denial{User: "o'brien", Scope: "t", Action: "WRITE"}, true},
		{"other refusal", "User 'guest' is not system or super user.", Denial{}, false},
		{"truncated", "Insufficient permissions (user=guest, scope=t", Denial{}, false},
		{"no action", "Insufficient permissions (user=guest)", Denial{}, false},
		{"empty", "", Denial{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := fmt.Errorf("wrapped: %w", NewRemoteError(accessDenied, accessDenied+": "+tc.msg, true))
			got, ok := Denied(err)
			if ok != tc.ok || got != tc.want {
				t.Fatalf("Denied = %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	if _, ok := Denied(NewRemoteError("java.io.IOException", "Insufficient permissions for user 'x' (global, action=READ)", false)); ok {
		t.Errorf("Denied of an IOException = true")
	}
	if _, ok := Denied(errors.New("Insufficient permissions for user 'x' (global, action=READ)")); ok {
		t.Errorf("Denied of a plain error = true")
	}
}

func FuzzDenied(f *testing.F) {
	f.Add("Insufficient permissions (user=u, scope=t, family=f, params=[x],action=READ)")
	f.Add("Insufficient permissions for user 'u' (global, action=ADMIN)")
	f.Add("Insufficient permissions for user '' (")
	f.Fuzz(func(t *testing.T, msg string) {
		d := parseDenial(msg) // must not panic
		if len(d.User)+len(d.Scope)+len(d.Family)+len(d.Action) > len(msg) {
			t.Fatalf("fields longer than the message: %+v", d)
		}
	})
}
