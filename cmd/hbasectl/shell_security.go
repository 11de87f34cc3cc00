package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hrpc"
)

// The shell's security group: the AccessController's permissions (Admin.Grant, Revoke,
// UserPermissions).

// securityVerbs are the security group's verbs and the visibility labels group's.
func securityVerbs() []*shellVerb {
	return append(visibilityVerbs(), []*shellVerb{
		{name: "grant", group: "security", prepare: prepareGrant, usage: `grant 'user', 'RWXCA'
grant '@group', 'RWXCA'
grant 'user', 'RW', '@namespace'
grant 'user', 'RW', 'table'
grant 'user', 'RW', 'table', 'family'
grant 'user', 'RW', 'ns:table', 'family', 'qualifier'
grant 'table', {'user' => 'RW', '@group' => 'R'}, {COLUMNS => 'f:q', ROWPREFIXFILTER => 'row'}

Gives a user, or a group ('@name'), rights on the whole cluster, a namespace ('@ns'), a table,
a family or one column, added to those it has there: R read, W write, X exec (coprocessor
endpoints), C create (create, alter, drop), A admin. The table, family or namespace must exist.
The form with a hash of users writes the cells a scan of those options finds again with that
access control list (R and W; read only where the table's regions run with
hbase.security.access.early_out false) and prints the number of rows.`},
		{name: "revoke", group: "security", prepare: prepareRevoke, usage: `revoke 'user'
revoke '@group'
revoke 'user', '@namespace'
revoke 'user', 'table'
revoke 'user', 'table', 'family'
revoke 'user', 'ns:table', 'family', 'qualifier'

Takes from a user or group every right granted at exactly that scope (the whole cluster, a
namespace, a table, a family or a column); rights granted at another scope stay.`},
		{name: "user_permission", group: "security", prepare: prepareUserPermission, usage: `user_permission
user_permission 'table_regex'
user_permission '@namespace_regex'

Lists the rights granted on the whole cluster (with the superusers), on the tables whose name
matches the regular expression (their families and columns too), or, with '@', on the
namespaces whose name matches it.`},
		{name: "list_security_capabilities", group: "security", prepare: prepareSecurityCapabilities, usage: `list_security_capabilities

Lists the security features the cluster runs with: SIMPLE_AUTHENTICATION or
SECURE_AUTHENTICATION (Kerberos), AUTHORIZATION (the AccessController), CELL_AUTHORIZATION
(cell ACLs) and CELL_VISIBILITY (visibility labels).`},
	}...)
}

func prepareSecurityCapabilities(st statement) (action, error) {
	if err := wantArgs(st.args, 0, 0, "list_security_capabilities"); err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		caps, err := a.SecurityCapabilities(ctx)
		if err != nil {
			return nil, err
		}
		out := &listOut{Names: []string{}}
		for _, c := range caps {
			out.Names = append(out.Names, string(c))
		}
		return out, nil
	}), nil
}

// actionCodes are the letters of the shell's permissions, as Java's Permission reads them.
var actionCodes = map[byte]admin.Action{'R': admin.ActionRead, 'W': admin.ActionWrite, 'X': admin.ActionExec,
	'C': admin.ActionCreate, 'A': admin.ActionAdmin}

// parseActions reads a permission string such as 'RW'.
func parseActions(v value) ([]admin.Action, error) {
	s, err := strVal(v, "permissions")
	if err != nil {
		return nil, err
	}
	if s == "" {
		return nil, fmt.Errorf("permissions: no action (want letters of RWXCA)")
	}
	var out []admin.Action
	for i := 0; i < len(s); i++ {
		a, ok := actionCodes[s[i]]
		if !ok {
			return nil, fmt.Errorf("permissions %s: unknown action %q (want letters of RWXCA)", quoteShell(s), s[i])
		}
		out = append(out, a)
	}
	return out, nil
}

// parseScope reads the optional '@namespace' or 'table'[, 'family'[, 'qualifier']] after the
// user (and the permissions).
func parseScope(args []value) (admin.Scope, error) {
	var names []string
	for i, v := range args {
		what := []string{"table or @namespace", "family", "qualifier"}[i]
		s, err := strVal(v, what)
		if err != nil {
			return admin.Scope{}, err
		}
		if s == "" && i < 2 {
			return admin.Scope{}, fmt.Errorf("%s: empty", what)
		}
		names = append(names, s)
	}
	var sc admin.Scope
	switch {
	case len(names) == 0:
	case strings.HasPrefix(names[0], "@"):
		if len(names) > 1 {
			return sc, fmt.Errorf("a namespace (%s) takes no family or qualifier", names[0])
		}
		if sc.Namespace = names[0][1:]; sc.Namespace == "" {
			return sc, fmt.Errorf("namespace: empty after '@'")
		}
	default:
		sc.Table = names[0]
		if len(names) > 1 {
			sc.Family = names[1]
		}
		if len(names) > 2 {
			sc.Qualifier = names[2]
		}
	}
	return sc, nil
}

// userArg reads the user or '@group' a command names.
func userArg(v value) (string, error) {
	u, err := strVal(v, "user")
	if err != nil {
		return "", err
	}
	if u == "" || u == "@" {
		return "", fmt.Errorf("user: empty")
	}
	return u, nil
}

func prepareGrant(st statement) (action, error) {
	if len(st.args) >= 2 && st.args[1].kind == vHash {
		return prepareGrantCells(st)
	}
	if err := wantArgs(st.args, 2, 5, "grant 'user', 'RWXCA'[, 'table' or '@namespace'[, 'family'[, 'qualifier']]]"); err != nil {
		return nil, err
	}
	user, err := userArg(st.args[0])
	if err != nil {
		return nil, err
	}
	acts, err := parseActions(st.args[1])
	if err != nil {
		return nil, err
	}
	sc, err := parseScope(st.args[2:])
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.Grant(ctx, user, admin.Permission{Scope: sc, Actions: acts}); err != nil {
			return nil, err
		}
		return done("Granted %s %s on %s", user, actionList(acts), sc), nil
	}), nil
}

// prepareGrantCells reads grant 'table', {'user' => 'RW'}, {scan options}: the cells the scan
// finds are written again with that ACL, as the shell does.
func prepareGrantCells(st statement) (action, error) {
	if len(st.args) != 3 || st.args[2].kind != vHash {
		return nil, fmt.Errorf("want grant 'table', {'user' => 'RW', ...}, {COLUMNS => ..., FILTER => ...}")
	}
	table, err := tableName(st.args, 0)
	if err != nil {
		return nil, err
	}
	acl, err := cellACL(st.args[1])
	if err != nil {
		return nil, err
	}
	var opts []hrpc.PutOption
	for _, o := range acl {
		opts = append(opts, o.(hrpc.PutOption))
	}
	return prepareRewrite("grant", table, st.args[2], opts...)
}

func prepareRevoke(st statement) (action, error) {
	if err := wantArgs(st.args, 1, 4, "revoke 'user'[, 'table' or '@namespace'[, 'family'[, 'qualifier']]]"); err != nil {
		return nil, err
	}
	user, err := userArg(st.args[0])
	if err != nil {
		return nil, err
	}
	sc, err := parseScope(st.args[1:])
	if err != nil {
		return nil, err
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		if err := a.Revoke(ctx, user, admin.Permission{Scope: sc}); err != nil {
			return nil, err
		}
		return done("Revoked the rights of %s on %s", user, sc), nil
	}), nil
}

func actionList(acts []admin.Action) string {
	s := make([]string, len(acts))
	for i, a := range acts {
		s[i] = string(a)
	}
	return strings.Join(s, ",")
}

func prepareUserPermission(st statement) (action, error) {
	if err := wantArgs(st.args, 0, 1, "user_permission['table_regex' or '@namespace_regex']"); err != nil {
		return nil, err
	}
	re := ""
	if len(st.args) == 1 {
		var err error
		if re, err = strVal(st.args[0], "table or @namespace regular expression"); err != nil {
			return nil, err
		}
	}
	var nsRe *regexp.Regexp
	if strings.HasPrefix(re, "@") {
		var err error
		// Java's String.matches: the whole name.
		if nsRe, err = regexp.Compile(`^(?:` + re[1:] + `)$`); err != nil {
			return nil, fmt.Errorf("namespace regular expression %s: %v", quoteShell(re[1:]), err)
		}
	}
	return adminAction(func(ctx context.Context, a *admin.Admin) (shellResult, error) {
		scopes, err := permissionScopes(ctx, a, re, nsRe)
		if err != nil {
			return nil, err
		}
		out := &permissionsOut{Permissions: []permissionRow{}}
		for _, sc := range scopes {
			ps, err := a.UserPermissions(ctx, sc, "")
			if err != nil {
				return nil, err
			}
			for _, p := range ps {
				out.Permissions = append(out.Permissions, permissionRowOf(p, re != ""))
			}
		}
		return out, nil
	}), nil
}

// permissionScopes are the scopes user_permission lists, as Java's
// AccessControlClient.getUserPermissions finds them: global without a regular expression,
// the namespaces it matches with '@', else the tables it matches (HBase's own included).
func permissionScopes(ctx context.Context, a *admin.Admin, re string, nsRe *regexp.Regexp) ([]admin.Scope, error) {
	var out []admin.Scope
	switch {
	case re == "":
		out = append(out, admin.Scope{})
	case nsRe != nil:
		nss, err := a.ListNamespaces(ctx)
		if err != nil {
			return nil, err
		}
		for _, ns := range nss {
			if nsRe.MatchString(ns.Name) {
				out = append(out, admin.Scope{Namespace: ns.Name})
			}
		}
	default:
		tables, err := a.ListTables(ctx, hrpc.TableRegex(re), hrpc.IncludeSystemTables())
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			out = append(out, admin.Scope{Table: t})
		}
	}
	return out, nil
}

// permissionRow is one right as user_permission prints it.
type permissionRow struct {
	User      string   `json:"user"`
	Namespace string   `json:"namespace,omitempty"`
	Table     string   `json:"table,omitempty"`
	Family    string   `json:"family,omitempty"`
	Qualifier string   `json:"qualifier,omitempty"`
	Actions   []string `json:"actions"`
}

// permissionRowOf converts a listed permission; the shell prints the namespace, table, family
// and qualifier of a permission only when it was asked about tables or namespaces.
func permissionRowOf(p admin.UserPermission, scoped bool) permissionRow {
	r := permissionRow{User: p.User, Actions: []string{}}
	for _, a := range p.Actions {
		r.Actions = append(r.Actions, string(a))
	}
	if !scoped {
		return r
	}
	r.Namespace = p.Scope.Namespace
	if p.Scope.Table != "" {
		r.Table = p.Scope.Table
		r.Namespace = "default"
		if ns, _, ok := strings.Cut(p.Scope.Table, ":"); ok {
			r.Namespace = ns
		}
		r.Family = formatBinary([]byte(p.Scope.Family))
		r.Qualifier = formatBinary([]byte(p.Scope.Qualifier))
	}
	return r
}

// permissionsOut is user_permission's listing.
type permissionsOut struct {
	Permissions []permissionRow `json:"permissions"`
}

func (r *permissionsOut) shellText(w io.Writer) (int64, error) {
	fmt.Fprintln(w, twoHeaders("User", "Namespace,Table,Family,Qualifier:Permission"))
	for _, p := range r.Permissions {
		perm := fmt.Sprintf("%s,%s,%s,%s: [Permission: actions=%s]", p.Namespace, p.Table, p.Family, p.Qualifier, strings.Join(p.Actions, ","))
		if _, err := fmt.Fprintln(w, twoColumns(p.User, perm)); err != nil {
			return 0, err
		}
	}
	return int64(len(r.Permissions)), nil
}
