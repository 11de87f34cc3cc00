package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/fakehbase"
)

// newService starts a fake HBase with the users table and the service on it.
func newService(t *testing.T) (*fakehbase.Server, http.Handler) {
	t.Helper()
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("users", []string{"info"}); err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return srv, handler(store{c})
}

func do(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)))
	return w
}

func TestGetSeededUser(t *testing.T) {
	srv, h := newService(t)
	if err := srv.Put("users", "alice", "info", "email", "alice@example.com"); err != nil {
		t.Fatal(err)
	}
	if w := do(h, "GET", "/users/alice", ""); w.Code != 200 || w.Body.String() != "alice@example.com\n" {
		t.Fatalf("GET alice = %d %q; want the seeded email", w.Code, w.Body)
	}
	if w := do(h, "GET", "/users/bob", ""); w.Code != 404 {
		t.Fatalf("GET bob = %d; want 404", w.Code)
	}
}

func TestPutStoresUser(t *testing.T) {
	srv, h := newService(t)
	if w := do(h, "PUT", "/users/bob", "bob@example.com"); w.Code != 204 {
		t.Fatalf("PUT bob = %d %q", w.Code, w.Body)
	}
	srv.CheckGet(t, "users", "bob", "info", "email", "bob@example.com")
}

func TestStorageFailure(t *testing.T) {
	srv, h := newService(t)
	if err := srv.InjectError(fakehbase.Match{Op: fakehbase.OpGet, Table: "users"}, fakehbase.DoNotRetry, "refused", 1); err != nil {
		t.Fatal(err)
	}
	if w := do(h, "GET", "/users/alice", ""); w.Code != 503 || !strings.Contains(w.Body.String(), "do_not_retry") {
		t.Fatalf("GET with a failing HBase = %d %q; want 503 do_not_retry", w.Code, w.Body)
	}
	var faulted int
	for _, c := range srv.CallLog() {
		if c.Fault == fakehbase.DoNotRetry {
			faulted++
		}
	}
	if faulted != 1 {
		t.Fatalf("%d calls answered by the fault; want 1", faulted)
	}
}
