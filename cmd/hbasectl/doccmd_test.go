package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/fakehbase"
)

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return err.Error()
	}
	return b.String()
}

// TestDocCommands drives hbasectl doc against fakehbase: put, get (whole, projected, JSON),
// update, query through an index and a scan, repair, delete, and its refusals.
func TestDocCommands(t *testing.T) {
	srv := fakehbase.NewServer(t)
	for _, table := range []string{"users", "users_index"} {
		if err := srv.CreateTable(table, []string{"d"}); err != nil {
			t.Fatal(err)
		}
	}
	e := env("HBASE_BOOTSTRAP", srv.Addr())
	run := func(wantCode int, args ...string) string {
		t.Helper()
		code, out, errOut := runArgs(t, e, args...)
		if code != wantCode {
			t.Fatalf("hbasectl %q: exit %d (stderr %q); want %d", args, code, errOut, wantCode)
		}
		if code != 0 {
			return errOut
		}
		return out
	}
	idx := []string{"-index", "city=.address.city"}
	run(0, append([]string{"doc", "put", "users", "alice", `{"name":"Alice","address":{"city":"Paris"},"n":1,"tags":[]}`}, idx...)...)
	run(0, append([]string{"doc", "put", "users", "bob", `{"name":"Bob","address":{"city":"Lyon"},"n":2.5}`}, idx...)...)
	if out := run(2, "doc", "put", "-insert", "users", "alice", `{}`); !strings.Contains(out, "document exists") {
		t.Fatalf("put -insert of a present one: %q", out)
	}
	out := run(0, "doc", "get", "users", "alice")
	if !strings.Contains(out, "alice (version 1)") || !strings.Contains(out, `  "address": {`) {
		t.Fatalf("get:\n%s", out)
	}
	out = run(0, "-json", "doc", "get", "users", "bob", "-path", ".name", "-path", ".n")
	var got docOut
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.ID != "bob" || compact(got.Doc) != `{"n":2.5,"name":"Bob"}` {
		t.Fatalf("get -json -path: %q (%v)", out, err)
	}
	out = run(0, append([]string{"doc", "update", "users", "alice", "-set", `.address.zip="75001"`, "-inc", ".n=2",
		"-append", `.tags="x"`, "-remove", ".name"}, idx...)...)
	if !strings.Contains(out, "update") || !strings.Contains(out, "2") {
		t.Fatalf("update: %q", out)
	}
	out = run(0, "doc", "get", "users", "alice", "-json")
	if err := json.Unmarshal([]byte(out), &got); err != nil || compact(got.Doc) != `{"address":{"city":"Paris","zip":"75001"},"n":3,"tags":["x"]}` {
		t.Fatalf("after update: %q (%v)", out, err)
	}
	if out := run(2, "doc", "update", "users", "alice", "-if-version", "1", "-set", ".a=1"); !strings.Contains(out, "version conflict") {
		t.Fatalf("update at an old version: %q", out)
	}
	out = run(0, append([]string{"doc", "query", "users", "-where", `.address.city == "Paris"`, "-explain"}, idx...)...)
	if !strings.Contains(out, "plan: index city") || !strings.Contains(out, "alice\tv2\t") || !strings.Contains(out, "1 document\n") {
		t.Fatalf("query through the index:\n%s", out)
	}
	out = run(0, "doc", "query", "users", "-where", ".n > 1", "-where", "exists .address", "-path", ".n", "-explain")
	if !strings.Contains(out, "plan: scan of users") || !strings.Contains(out, `bob	v1	{"n":2.5}`) || !strings.Contains(out, "2 documents") {
		t.Fatalf("query by a scan:\n%s", out)
	}
	out = run(0, "-json", "doc", "query", "users", "-where", `.address.city ^= "L"`, "-where", `.n == 3`, "-or")
	var many docsResult
	if err := json.Unmarshal([]byte(out), &many); err != nil || many.Count != 2 {
		t.Fatalf("query -or -json: %q (%v)", out, err)
	}
	// Bob was written without the index: the repair adds his row.
	run(0, "doc", "put", "users", "carol", `{"address":{"city":"Paris"}}`)
	out = run(0, append([]string{"doc", "repair", "users", "city"}, idx...)...)
	if !strings.Contains(out, `added .address.city="Paris" "carol"`) {
		t.Fatalf("repair:\n%s", out)
	}
	run(0, "doc", "delete", "users", "carol")
	run(2, "doc", "get", "users", "carol")

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"doc", "frob", "users"}, `doc: want get, put, update, delete, query or repair, got "frob"`},
		{[]string{"doc", "get", "users"}, "doc get: want doc get <table> <id>"},
		{[]string{"doc", "get", "users", "a", "-where", ".a == 1"}, "doc get: -where does not go with it"},
		{[]string{"doc", "put", "users", "a", "[1]"}, "doc put: invalid document"},
		{[]string{"doc", "query", "users", "-where", ".a = 1"}, "want 'path op json'"},
		{[]string{"doc", "query", "users", "-where", ".a == x"}, "is not a JSON value"},
		{[]string{"doc", "query", "users", "-where", ".a..b == 1"}, "invalid document path"},
		{[]string{"doc", "update", "users", "a"}, "no -set, -remove, -inc or -append"},
		{[]string{"doc", "update", "users", "a", "-set", ".x"}, "-set: want path=json"},
		{[]string{"doc", "repair", "users", "nope"}, "document index not found"},
		{[]string{"doc", "get", "users", "a", "-index", "bad"}, "-index: want name=path"},
	} {
		if out := run(2, tc.args...); !strings.Contains(out, tc.want) {
			t.Errorf("hbasectl %q: %q; want %q", tc.args, out, tc.want)
		}
	}
}
