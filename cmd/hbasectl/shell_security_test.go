package main

import (
	"strings"
	"testing"

	"github.com/go-hbase/hbase/admin"
)

// TestUserPermissionText holds user_permission's rows to the shell's: namespace, table, family
// and qualifier only when a table or namespace was asked about, the table's namespace
// "default" when it has none, binary names as toStringBinary writes them.
func TestUserPermissionText(t *testing.T) {
	perms := []admin.UserPermission{
		{User: "bob", Scope: admin.Scope{Table: "t1"}, Actions: []admin.Action{admin.ActionRead, admin.ActionWrite}},
		{User: "@ops", Scope: admin.Scope{Table: "ns:t2", Family: "f", Qualifier: "q\x00,"}, Actions: []admin.Action{admin.ActionRead}},
		{User: "ann", Scope: admin.Scope{Namespace: "ns"}, Actions: []admin.Action{admin.ActionCreate}},
	}
	out := &permissionsOut{}
	for _, p := range perms {
		out.Permissions = append(out.Permissions, permissionRowOf(p, true))
	}
	out.Permissions = append(out.Permissions, permissionRowOf(admin.UserPermission{User: "root", Actions: []admin.Action{admin.ActionAdmin}}, false))
	var b strings.Builder
	n, err := out.shellText(&b)
	if err != nil || n != 4 {
		t.Fatalf("shellText = %d, %v; want 4 rows", n, err)
	}
	for _, want := range []string{
		"User                             Namespace,Table,Family,Qualifier:Permission\n",
		" bob                             default,t1,,: [Permission: actions=READ,WRITE]\n",
		" @ops                            ns,ns:t2,f,q\\x00,: [Permission: actions=READ]\n",
		" ann                             ns,,,: [Permission: actions=CREATE]\n",
		" root                            ,,,: [Permission: actions=ADMIN]\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output %q has no line %q", b.String(), want)
		}
	}
}

// TestParseActions holds the permission letters to Java's Permission codes.
func TestParseActions(t *testing.T) {
	got, err := parseActions(value{kind: vString, s: "RWXCA"})
	if err != nil || actionList(got) != "READ,WRITE,EXEC,CREATE,ADMIN" {
		t.Fatalf("parseActions('RWXCA') = %v, %v; want every action in order", got, err)
	}
	for _, bad := range []string{"", "r", "RWQ"} {
		if _, err := parseActions(value{kind: vString, s: bad}); err == nil {
			t.Errorf("parseActions(%q) = nil error; want a refusal", bad)
		}
	}
}
