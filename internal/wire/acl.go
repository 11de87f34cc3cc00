package wire

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-hbase/hbase/internal/pb"
)

// Access control requests to the master (MasterService, HBase 2.x): the master answers them
// only when the AccessController coprocessor is loaded, and otherwise fails them with a
// DoNotRetryIOException wrapping an UnsupportedOperationException ("AccessController is
// not loaded"). Package admin sends them, with its Scope converted to ACLScope.

// Methods of MasterService for access control.
const (
	MethodGrant              = "Grant"
	MethodRevoke             = "Revoke"
	MethodGetUserPermissions = "GetUserPermissions"
	MethodHasUserPermissions = "HasUserPermissions"
)

// ACLScope is where a permission applies: the whole cluster (every field empty), a namespace,
// or a table, narrowed to a family and to one of its qualifiers.
type ACLScope struct {
	Namespace string
	Table     string // "ns:qualifier" or "qualifier"
	Family    string // with Table only
	Qualifier string // with Family only
}

// ACLActions are HBase's action names (Permission.Action), in the order of their numbers.
var ACLActions = [...]string{"READ", "WRITE", "EXEC", "CREATE", "ADMIN"}

// Check reports whether s names one scope with legal names.
func (s ACLScope) Check() error {
	switch {
	case s.Namespace != "" && s.Table != "":
		return BadRequest("a permission's scope is a namespace or a table, not both (namespace %q, table %q)", s.Namespace, s.Table)
	case s.Family != "" && s.Table == "":
		return BadRequest("a permission on family %q names no table", s.Family)
	case s.Qualifier != "" && s.Family == "":
		return BadRequest("a permission on qualifier %q names no family", s.Qualifier)
	case s.Namespace != "":
		return CheckNamespaceName(s.Namespace)
	case s.Table != "":
		if err := CheckTableName(s.Table); err != nil {
			return err
		}
		if s.Family != "" {
			return CheckFamilyName(s.Family)
		}
	}
	return nil
}

// String names the scope for messages: "global", "namespace ns", "table t", "table t family
// f", "table t column f:q".
func (s ACLScope) String() string {
	switch {
	case s.Namespace != "":
		return "namespace " + s.Namespace
	case s.Table == "":
		return "global"
	case s.Family == "":
		return "table " + s.Table
	case s.Qualifier == "":
		return "table " + s.Table + " family " + s.Family
	}
	return "table " + s.Table + " column " + s.Family + ":" + s.Qualifier
}

// CheckACLUser checks the user or group ("@name") a permission is for.
func CheckACLUser(user string) error {
	switch {
	case user == "":
		return BadRequest("empty user name")
	case user == "@":
		return BadRequest("empty group name (a group is \"@name\")")
	case strings.TrimSpace(user) != user:
		return BadRequest("user name %q begins or ends with white space", user)
	}
	return nil
}

// actionsProto converts action names, each once, in the order given; none is an error unless
// none may be.
func actionsProto(actions []string, noneOK bool) ([]pb.Permission_Action, error) {
	if len(actions) == 0 && !noneOK {
		return nil, BadRequest("a permission without an action (want READ, WRITE, EXEC, CREATE or ADMIN)")
	}
	out := make([]pb.Permission_Action, 0, len(actions))
	for _, a := range actions {
		i := slices.Index(ACLActions[:], a)
		if i < 0 {
			return nil, BadRequest("unknown action %q (want READ, WRITE, EXEC, CREATE or ADMIN)", a)
		}
		if act := pb.Permission_Action(i); !slices.Contains(out, act) {
			out = append(out, act)
		}
	}
	return out, nil
}

// permissionProto builds the Permission of a checked scope.
func permissionProto(s ACLScope, acts []pb.Permission_Action) (*pb.Permission, error) {
	switch {
	case s.Namespace != "":
		return &pb.Permission{Type: pb.Permission_Namespace.Enum(), NamespacePermission: &pb.NamespacePermission{
			NamespaceName: []byte(s.Namespace), Action: acts}}, nil
	case s.Table != "":
		tn, err := TableNameProto(s.Table)
		if err != nil {
			return nil, err
		}
		tp := &pb.TablePermission{TableName: tn, Action: acts}
		if s.Family != "" {
			tp.Family = []byte(s.Family)
		}
		if s.Qualifier != "" {
			tp.Qualifier = []byte(s.Qualifier)
		}
		return &pb.Permission{Type: pb.Permission_Table.Enum(), TablePermission: tp}, nil
	}
	return &pb.Permission{Type: pb.Permission_Global.Enum(), GlobalPermission: &pb.GlobalPermission{Action: acts}}, nil
}

// ACLPermission builds the Permission of actions (at least one) on scope s.
func ACLPermission(s ACLScope, actions []string) (*pb.Permission, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	acts, err := actionsProto(actions, false)
	if err != nil {
		return nil, err
	}
	return permissionProto(s, acts)
}

// GrantRequest builds the request giving user (or "@group") actions on s; merge keeps what
// the user has there besides, else it is replaced.
func GrantRequest(user string, s ACLScope, actions []string, merge bool) (*pb.GrantRequest, error) {
	if err := CheckACLUser(user); err != nil {
		return nil, err
	}
	// HBase keeps a table permission as the column user,family,qualifier of hbase:acl and
	// reads that name back as UTF-8 text (PermissionStorage.parsePermissionRecord): other
	// bytes come back as U+FFFD, a permission on a column that does not exist. Refused here
	// rather than stored to no effect.
	for _, n := range [...]struct{ what, v string }{{"family", s.Family}, {"qualifier", s.Qualifier}} {
		if !utf8.ValidString(n.v) {
			return nil, BadRequest("a permission's %s %q is not UTF-8: HBase would keep it as other bytes, granting nothing", n.what, n.v)
		}
	}
	p, err := ACLPermission(s, actions)
	if err != nil {
		return nil, err
	}
	return &pb.GrantRequest{UserPermission: &pb.UserPermission{User: []byte(user), Permission: p},
		MergeExistingPermissions: &merge}, nil
}

// RevokeRequest builds the request taking actions on s from user; no action takes every one
// the user has there (HBase's revoke of a permission without actions).
func RevokeRequest(user string, s ACLScope, actions []string) (*pb.RevokeRequest, error) {
	if err := CheckACLUser(user); err != nil {
		return nil, err
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	acts, err := actionsProto(actions, true)
	if err != nil {
		return nil, err
	}
	p, err := permissionProto(s, acts)
	if err != nil {
		return nil, err
	}
	return &pb.RevokeRequest{UserPermission: &pb.UserPermission{User: []byte(user), Permission: p}}, nil
}

// UserPermissionsRequest builds the request listing the permissions granted at s (at the
// table and, when s names them, its family and qualifier), of user only when it is not "".
func UserPermissionsRequest(s ACLScope, user string) (*pb.GetUserPermissionsRequest, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if user != "" {
		if err := CheckACLUser(user); err != nil {
			return nil, err
		}
	}
	req := &pb.GetUserPermissionsRequest{}
	switch {
	case s.Namespace != "":
		req.Type, req.NamespaceName = pb.Permission_Namespace.Enum(), []byte(s.Namespace)
	case s.Table != "":
		tn, err := TableNameProto(s.Table)
		if err != nil {
			return nil, err
		}
		req.Type, req.TableName = pb.Permission_Table.Enum(), tn
		if s.Family != "" {
			req.ColumnFamily = []byte(s.Family)
		}
		if s.Qualifier != "" {
			req.ColumnQualifier = []byte(s.Qualifier)
		}
	default:
		req.Type = pb.Permission_Global.Enum()
	}
	if user != "" {
		req.UserName = []byte(user)
	}
	return req, nil
}

// HasUserPermissionsRequest builds the request asking whether user (the caller when "") has
// each of perms.
func HasUserPermissionsRequest(user string, perms []*pb.Permission) (*pb.HasUserPermissionsRequest, error) {
	if len(perms) == 0 {
		return nil, BadRequest("no permission to check")
	}
	req := &pb.HasUserPermissionsRequest{Permission: perms}
	if user != "" {
		if err := CheckACLUser(user); err != nil {
			return nil, err
		}
		req.UserName = []byte(user)
	}
	return req, nil
}

// ACLEntry is one permission the master listed: a user's (or group's) actions on a scope.
type ACLEntry struct {
	User    string
	Scope   ACLScope
	Actions []string // in the order of ACLActions, each once
}

// ParseUserPermissions reads the master's listing. A permission whose type and content do not
// agree (a table permission without a table) is a bad response, not an entry.
func ParseUserPermissions(resp *pb.GetUserPermissionsResponse) ([]ACLEntry, error) {
	out := make([]ACLEntry, 0, len(resp.GetUserPermission()))
	for i, up := range resp.GetUserPermission() {
		e, err := aclEntry(up)
		if err != nil {
			return nil, BadResponse("permission %d: %v", i, err)
		}
		out = append(out, e)
	}
	return out, nil
}

func aclEntry(up *pb.UserPermission) (ACLEntry, error) {
	e := ACLEntry{User: string(up.GetUser())}
	if e.User == "" {
		return e, fmt.Errorf("no user")
	}
	p := up.GetPermission()
	var acts []pb.Permission_Action
	switch p.GetType() {
	case pb.Permission_Global:
		acts = p.GetGlobalPermission().GetAction()
	case pb.Permission_Namespace:
		np := p.GetNamespacePermission()
		if len(np.GetNamespaceName()) == 0 {
			return e, fmt.Errorf("a namespace permission of %q without a namespace", e.User)
		}
		e.Scope.Namespace, acts = string(np.GetNamespaceName()), np.GetAction()
	case pb.Permission_Table:
		tp := p.GetTablePermission()
		if tp.GetTableName() == nil || len(tp.GetTableName().GetQualifier()) == 0 {
			return e, fmt.Errorf("a table permission of %q without a table", e.User)
		}
		e.Scope.Table = TableNameString(tp.GetTableName())
		e.Scope.Family, e.Scope.Qualifier = string(tp.GetFamily()), string(tp.GetQualifier())
		if e.Scope.Qualifier != "" && e.Scope.Family == "" {
			return e, fmt.Errorf("a permission of %q on qualifier %q without a family", e.User, e.Scope.Qualifier)
		}
		acts = tp.GetAction()
	default:
		return e, fmt.Errorf("a permission of %q of unknown type %d", e.User, p.GetType())
	}
	seen := [len(ACLActions)]bool{}
	for _, a := range acts {
		if a >= 0 && int(a) < len(ACLActions) {
			seen[a] = true
		}
	}
	for i, ok := range seen {
		if ok {
			e.Actions = append(e.Actions, ACLActions[i])
		}
	}
	return e, nil
}

// ParseHasUserPermissions reads the master's answers to n permissions.
func ParseHasUserPermissions(resp *pb.HasUserPermissionsResponse, n int) ([]bool, error) {
	got := resp.GetHasUserPermission()
	if len(got) != n {
		return nil, BadResponse("%d answers to %d permissions", len(got), n)
	}
	return slices.Clone(got), nil
}
