package wire

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func TestACLScopeCheck(t *testing.T) {
	for _, tc := range []struct {
		s    ACLScope
		want string // "" for no error; else a piece of the message
		name bool   // also hberr.ErrInvalidName
	}{
		{ACLScope{}, "", false},
		{ACLScope{Namespace: "shop"}, "", false},
		{ACLScope{Table: "shop:orders", Family: "f", Qualifier: "\x00,q"}, "", false},
		{ACLScope{Namespace: "shop", Table: "orders"}, "not both", false},
		{ACLScope{Family: "f"}, "names no table", false},
		{ACLScope{Table: "t", Qualifier: "q"}, "names no family", false},
		{ACLScope{Namespace: "bad ns"}, "illegal character", true},
		{ACLScope{Table: "-t"}, "illegal first character", true},
		{ACLScope{Table: "t", Family: "a:b"}, "illegal character", true},
	} {
		err := tc.s.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v; want no error", tc.s, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, hberr.ErrBadRequest)):
			t.Errorf("%+v: %v; want a bad request saying %q", tc.s, err, tc.want)
		case tc.name && !errors.Is(err, hberr.ErrInvalidName):
			t.Errorf("%+v: %v; want hberr.ErrInvalidName", tc.s, err)
		}
	}
}

func TestGrantRequest(t *testing.T) {
	req, err := GrantRequest("@testers", ACLScope{Table: "ns:t", Family: "f", Qualifier: "q"}, []string{"WRITE", "READ", "WRITE"}, true)
	if err != nil {
		t.Fatal(err)
	}
	want := &pb.GrantRequest{
		UserPermission: &pb.UserPermission{User: []byte("@testers"), Permission: &pb.Permission{
			Type: pb.Permission_Table.Enum(),
			TablePermission: &pb.TablePermission{
				TableName: &pb.TableName{Namespace: []byte("ns"), Qualifier: []byte("t")},
				Family:    []byte("f"), Qualifier: []byte("q"),
				Action: []pb.Permission_Action{pb.Permission_WRITE, pb.Permission_READ},
			}}},
		MergeExistingPermissions: proto.Bool(true),
	}
	if !proto.Equal(req, want) {
		t.Fatalf("GrantRequest = %v; want %v", req, want)
	}
	for _, tc := range []struct {
		user    string
		actions []string
		want    string
	}{
		{"", []string{"READ"}, "empty user"},
		{"@", []string{"READ"}, "empty group"},
		{" guest", []string{"READ"}, "white space"},
		{"guest", nil, "without an action"},
		{"guest", []string{"READ", "READX"}, `unknown action "READX"`},
		{"guest", []string{"read"}, `unknown action "read"`},
	} {
		_, err := GrantRequest(tc.user, ACLScope{}, tc.actions, false)
		if err == nil || !errors.Is(err, hberr.ErrBadRequest) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("GrantRequest(%q, %q) = %v; want a bad request saying %q", tc.user, tc.actions, err, tc.want)
		}
	}
	// HBase reads a table permission's family and qualifier back as UTF-8 text.
	for _, sc := range []ACLScope{{Table: "t", Family: "f", Qualifier: "q\xff"}, {Table: "t", Family: "f\xfe"}} {
		_, err := GrantRequest("guest", sc, []string{"READ"}, false)
		if !errors.Is(err, hberr.ErrBadRequest) || !strings.Contains(err.Error(), "not UTF-8") {
			t.Errorf("GrantRequest on %+v = %v; want a bad request saying not UTF-8", sc, err)
		}
	}
	if _, err := GrantRequest("guest", ACLScope{Table: "t", Family: "f", Qualifier: "\x00,)é"}, []string{"READ"}, false); err != nil {
		t.Errorf("GrantRequest on a UTF-8 qualifier with ',' and NUL: %v", err)
	}
}

func TestRevokeAndListRequests(t *testing.T) {
	// A revoke without actions takes every action: HBase's removeUserPermission.
	rev, err := RevokeRequest("guest", ACLScope{Namespace: "shop"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if np := rev.GetUserPermission().GetPermission().GetNamespacePermission(); string(np.GetNamespaceName()) != "shop" || len(np.GetAction()) != 0 {
		t.Fatalf("RevokeRequest = %v", rev)
	}
	for _, tc := range []struct {
		s    ACLScope
		user string
		want *pb.GetUserPermissionsRequest
	}{
		{ACLScope{}, "", &pb.GetUserPermissionsRequest{Type: pb.Permission_Global.Enum()}},
		{ACLScope{Namespace: "shop"}, "guest", &pb.GetUserPermissionsRequest{Type: pb.Permission_Namespace.Enum(),
			NamespaceName: []byte("shop"), UserName: []byte("guest")}},
		{ACLScope{Table: "t", Family: "f", Qualifier: "q"}, "", &pb.GetUserPermissionsRequest{Type: pb.Permission_Table.Enum(),
			TableName: &pb.TableName{Namespace: []byte("default"), Qualifier: []byte("t")}, ColumnFamily: []byte("f"), ColumnQualifier: []byte("q")}},
	} {
		got, err := UserPermissionsRequest(tc.s, tc.user)
		if err != nil || !proto.Equal(got, tc.want) {
			t.Errorf("UserPermissionsRequest(%+v, %q) = %v, %v; want %v", tc.s, tc.user, got, err, tc.want)
		}
	}
	if _, err := HasUserPermissionsRequest("guest", nil); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("HasUserPermissionsRequest without permissions = %v", err)
	}
}

func TestParseUserPermissions(t *testing.T) {
	tn := &pb.TableName{Namespace: []byte("default"), Qualifier: []byte("t")}
	resp := &pb.GetUserPermissionsResponse{UserPermission: []*pb.UserPermission{
		{User: []byte("guest"), Permission: &pb.Permission{Type: pb.Permission_Table.Enum(), TablePermission: &pb.TablePermission{
			TableName: tn, Family: []byte("f,1"), Qualifier: []byte("\x00)"),
			Action: []pb.Permission_Action{pb.Permission_WRITE, pb.Permission_READ, pb.Permission_WRITE}}}},
		{User: []byte("@ops"), Permission: &pb.Permission{Type: pb.Permission_Namespace.Enum(), NamespacePermission: &pb.NamespacePermission{
			NamespaceName: []byte("shop"), Action: []pb.Permission_Action{pb.Permission_ADMIN}}}},
		{User: []byte("hbase"), Permission: &pb.Permission{Type: pb.Permission_Global.Enum(), GlobalPermission: &pb.GlobalPermission{
			Action: []pb.Permission_Action{4, 3, 2, 1, 0}}}},
	}}
	got, err := ParseUserPermissions(resp)
	if err != nil {
		t.Fatal(err)
	}
	want := []ACLEntry{
		{User: "guest", Scope: ACLScope{Table: "t", Family: "f,1", Qualifier: "\x00)"}, Actions: []string{"READ", "WRITE"}},
		{User: "@ops", Scope: ACLScope{Namespace: "shop"}, Actions: []string{"ADMIN"}},
		{User: "hbase", Actions: ACLActions[:]},
	}
	if len(got) != len(want) {
		t.Fatalf("ParseUserPermissions = %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i].User != want[i].User || got[i].Scope != want[i].Scope || !slices.Equal(got[i].Actions, want[i].Actions) {
			t.Errorf("entry %d = %+v; want %+v", i, got[i], want[i])
		}
	}
	// Answers whose type and content disagree are refused, not listed.
	for _, bad := range []*pb.UserPermission{
		{User: []byte(""), Permission: &pb.Permission{Type: pb.Permission_Global.Enum()}},
		{User: []byte("u"), Permission: &pb.Permission{Type: pb.Permission_Table.Enum()}},
		{User: []byte("u"), Permission: &pb.Permission{Type: pb.Permission_Table.Enum(), TablePermission: &pb.TablePermission{TableName: &pb.TableName{}}}},
		{User: []byte("u"), Permission: &pb.Permission{Type: pb.Permission_Table.Enum(), TablePermission: &pb.TablePermission{TableName: tn, Qualifier: []byte("q")}}},
		{User: []byte("u"), Permission: &pb.Permission{Type: pb.Permission_Namespace.Enum()}},
		{User: []byte("u"), Permission: &pb.Permission{Type: pb.Permission_Type(9).Enum()}},
	} {
		if _, err := ParseUserPermissions(&pb.GetUserPermissionsResponse{UserPermission: []*pb.UserPermission{bad}}); !errors.Is(err, ErrBadResponse) {
			t.Errorf("ParseUserPermissions(%v) = %v; want ErrBadResponse", bad, err)
		}
	}
	if _, err := ParseHasUserPermissions(&pb.HasUserPermissionsResponse{HasUserPermission: []bool{true}}, 2); !errors.Is(err, ErrBadResponse) {
		t.Errorf("one answer to two permissions = %v; want ErrBadResponse", err)
	}
}
