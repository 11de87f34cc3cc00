package admin

import "github.com/go-hbase/hbase/internal/wire"

// Access control: the permissions HBase's AccessController keeps (in hbase:acl) and checks on
// every call, granted to users and groups on the whole cluster, a namespace, a table, a
// family or one column. The calls are the master's (Grant, Revoke, UserPermissions,
// HasPermissions); a cluster that does not load the AccessController fails them with
// hberr.ErrNotSupported. A call the user may not make fails with hberr.ErrPermissionDenied
// (hberr.Denied reads who was refused what, where).

// Action is a right the AccessController checks, by HBase's name for it.
type Action string

// The actions (Permission.Action). What each allows is HBase's matrix: READ reads (Get,
// Scan, Exists), WRITE writes (Put, Delete, Append, Increment, bulk loads), CREATE creates,
// alters and drops tables, ADMIN administers (enable, disable, split, grant, revoke...), EXEC
// runs coprocessor endpoints.
const (
	ActionRead   Action = "READ"
	ActionWrite  Action = "WRITE"
	ActionExec   Action = "EXEC"
	ActionCreate Action = "CREATE"
	ActionAdmin  Action = "ADMIN"
)

// Scope is where a permission applies. The zero Scope is global: the whole cluster. A
// Namespace scope covers the namespace's tables; a Table scope ("ns:table", or "table" in the
// default namespace) the table, or only its Family, or only the Family's Qualifier. Set
// Namespace or Table, not both; Family needs Table and Qualifier needs Family. (A scope cannot
// name the empty qualifier.)
type Scope struct {
	Namespace string
	Table     string
	Family    string
	Qualifier string
}

// String names the scope: "global", "namespace ns", "table t", "table t family f", "table t
// column f:q".
func (s Scope) String() string { return wire.ACLScope(s).String() }

// Permission is actions on a scope.
type Permission struct {
	Scope   Scope
	Actions []Action
}

// UserPermission is a permission granted to a user, or to a group ("@name"), as the master
// lists it.
type UserPermission struct {
	// User is the user's short name ("guest"; HBase maps a Kerberos principal to it) or a
	// group as "@name".
	User string
	// Scope is where the actions apply.
	Scope Scope
	// Actions are what the user may do there, in the order ActionRead, ActionWrite,
	// ActionExec, ActionCreate, ActionAdmin, each once.
	Actions []Action
}

// GrantOption configures a Grant.
type GrantOption func(*grantOptions)

type grantOptions struct {
	replace bool
}

// ReplaceExisting makes a Grant replace the actions the user has at the scope instead of
// adding to them (HBase's grant with mergeExistingPermissions false).
func ReplaceExisting() GrantOption { return func(o *grantOptions) { o.replace = true } }

// actionNames converts actions for the wire, which checks them.
func actionNames(actions []Action) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = string(a)
	}
	return out
}
