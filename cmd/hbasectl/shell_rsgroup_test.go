package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hberr"
)

// TestRSGroupOutputs checks the text of list_rsgroups (the shell's two columns, a group's name
// on its first line only, a group without members on a line of its own), get_rsgroup and
// show_rsgroup_config, and their row counts.
func TestRSGroupOutputs(t *testing.T) {
	groups := &rsgroupsOut{Groups: []*rsgroupOut{
		{Name: "default", Servers: []string{"h1:16020"}, Tables: []string{"hbase:meta", "t,1"}},
		{Name: "empty", Servers: []string{}, Tables: []string{}},
	}}
	var b strings.Builder
	rows, err := groups.shellText(&b)
	want := "NAME                             SERVER / TABLE\n" +
		" default                         server h1:16020\n" +
		"                                 table hbase:meta\n" +
		"                                 table t,1\n" +
		" empty\n"
	if err != nil || rows != 2 || b.String() != want {
		t.Fatalf("list_rsgroups = %d rows, %v:\n%s\nwant 2 rows:\n%s", rows, err, b.String(), want)
	}

	b.Reset()
	rows, err = groups.Groups[0].shellText(&b)
	if want := "SERVERS\nh1:16020\nTABLES\nhbase:meta\nt,1\n"; err != nil || rows != 3 || b.String() != want {
		t.Fatalf("get_rsgroup = %d rows, %v:\n%s\nwant 3 rows:\n%s", rows, err, b.String(), want)
	}

	b.Reset()
	conf := &rsgroupConfigOut{Group: "g", Config: rsgroupConfig(map[string]string{"z": "1", "a": "x y"})}
	rows, err = conf.shellText(&b)
	if want := "KEY                              VALUE\n a                               x y\n z                               1\n"; err != nil || rows != 2 || b.String() != want {
		t.Fatalf("show_rsgroup_config = %d rows, %v:\n%q\nwant 2 rows:\n%q", rows, err, b.String(), want)
	}
}

// TestGroupNameOut checks that a namespace without a group prints no row and a JSON null, not
// an empty string a script could take for a group's name.
func TestGroupNameOut(t *testing.T) {
	for _, tc := range []struct {
		group, text, json string
		rows              int64
	}{
		{"g1", "g1\n", `{"group":"g1"}`, 1},
		{"", "", `{"group":null}`, 0},
	} {
		var b strings.Builder
		r := &groupNameOut{Group: tc.group}
		rows, err := r.shellText(&b)
		js, jerr := json.Marshal(r)
		if err != nil || jerr != nil || rows != tc.rows || b.String() != tc.text || string(js) != tc.json {
			t.Errorf("group %q: text %q (%d rows, %v), JSON %s (%v); want %q (%d rows), %s", tc.group, b.String(), rows, err, js, jerr, tc.text, tc.rows, tc.json)
		}
	}
}

// TestRSGroupArguments checks the names and addresses the verbs take before sending anything.
func TestRSGroupArguments(t *testing.T) {
	for _, ok := range []string{"g", "Group_1", "default", "0"} {
		if _, err := groupArg(value{kind: vString, s: ok}, "group"); err != nil {
			t.Errorf("groupArg(%q) = %v; want it taken", ok, err)
		}
	}
	for _, bad := range []string{"", "a-b", "a b", "ns:g", "g,1", "\xff"} {
		if _, err := groupArg(value{kind: vString, s: bad}, "group"); err == nil {
			t.Errorf("groupArg(%q) taken; want refused", bad)
		}
	}
	for _, ok := range []string{"h:1", "host.example.com:16020", "[::1]:16020", "10.0.0.1:65535"} {
		if _, err := serverArg(value{kind: vString, s: ok}); err != nil {
			t.Errorf("serverArg(%q) = %v; want it taken", ok, err)
		}
	}
	for _, bad := range []string{"h", ":1", "h:0", "h:65536", "h:x", "h,16020,1", "h:1:2"} {
		if _, err := serverArg(value{kind: vString, s: bad}); err == nil {
			t.Errorf("serverArg(%q) taken; want refused", bad)
		}
	}
	if _, err := serverArg(value{kind: vInt, i: 1}); err == nil {
		t.Error("serverArg(1) taken; want a quoted string")
	}
}

// TestRSGroupRefusalsInShellTerms checks the messages and exit codes of the group refusals: a
// group that is not there or already is, and a server the master does not know, named as the
// user named it.
func TestRSGroupRefusalsInShellTerms(t *testing.T) {
	remote := &hberr.RemoteError{Class: "org.apache.hadoop.hbase.constraint.ConstraintException", Message: "Server h:1 is either offline or it does not exist."}
	for _, tc := range []struct {
		err  error
		msg  string
		code int
	}{
		{&hberr.AdminError{Op: "RSGroup", Name: "g1", Err: hberr.ErrRSGroupNotFound}, "RSGroup g1 does not exist", 2},
		{&hberr.AdminError{Op: "AddRSGroup", Name: "g1", Err: hberr.ErrRSGroupExists}, "RSGroup g1 already exists", 2},
		{&hberr.AdminError{Op: "RSGroups", Err: fmt.Errorf("%w: RSGroups are off in this cluster (load the endpoint): %w", hberr.ErrNotSupported,
			&hberr.RemoteError{Class: "org.apache.hadoop.hbase.exceptions.UnknownProtocolException", Message: "No registered Master Coprocessor Endpoint found for RSGroupAdminService"})},
			"not supported: RSGroups are off in this cluster (load the endpoint): No registered Master Coprocessor Endpoint found for RSGroupAdminService", 1},
		{serverRefusal("MoveServersToRSGroup", []string{"h:1"}, &hberr.AdminError{Op: "MoveServersToRSGroup", Name: "g1",
			Err: errors.Join(hberr.ErrServerNotFound, remote)}), "No live region server h:1", 2},
	} {
		if got := shellMessage(tc.err); got != tc.msg {
			t.Errorf("shellMessage(%v) = %q; want %q", tc.err, got, tc.msg)
		}
		if got := exitCode(tc.err); got != tc.code {
			t.Errorf("exitCode(%v) = %d; want %d", tc.err, got, tc.code)
		}
	}
}
