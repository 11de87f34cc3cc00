package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// Grant gives user (or a group, "@name") p's actions on p's scope, added to what it has
// there already (ReplaceExisting replaces them). The table, family or namespace named must
// exist (hberr.ErrTableNotFound, hberr.ErrNoSuchFamily, hberr.ErrNamespaceNotFound; HBase
// itself would store a grant on a table that does not exist). The caller needs ADMIN on the
// scope (hberr.ErrPermissionDenied), and superusers' permissions cannot be changed. A family
// or qualifier that is not UTF-8 is refused (hberr.ErrBadRequest): HBase reads the names of
// the permissions it keeps as UTF-8 text, so such a grant would name another column.
func (a *Admin) Grant(ctx context.Context, user string, p Permission, opts ...GrantOption) error {
	ctx, call := a.begin(ctx, "Grant", aclName(user, p.Scope), p.Scope.Table)
	var o grantOptions
	for _, opt := range opts {
		if opt == nil {
			return call.end(ctx, wire.BadRequest("nil GrantOption"))
		}
		opt(&o)
	}
	req, err := wire.GrantRequest(user, wire.ACLScope(p.Scope), actionNames(p.Actions), !o.replace)
	if err == nil {
		err = a.scopeExists(ctx, p.Scope)
	}
	if err == nil {
		err = a.aclCall(ctx, wire.MethodGrant, req, &pb.GrantResponse{})
	}
	return call.end(ctx, err)
}

// Revoke takes p's actions on p's scope from user (or "@group"); with no action it takes
// every action the user has there. It revokes only what was granted at that very scope: a
// table permission is not narrowed by revoking on one of its families.
func (a *Admin) Revoke(ctx context.Context, user string, p Permission) error {
	ctx, call := a.begin(ctx, "Revoke", aclName(user, p.Scope), p.Scope.Table)
	req, err := wire.RevokeRequest(user, wire.ACLScope(p.Scope), actionNames(p.Actions))
	if err == nil {
		err = a.scopeExists(ctx, p.Scope)
	}
	if err == nil {
		err = a.aclCall(ctx, wire.MethodRevoke, req, &pb.RevokeResponse{})
	}
	return call.end(ctx, err)
}

// UserPermissions lists the permissions granted at scope, of user (or "@group") only unless
// user is "": the global ones (and the superusers, with every action, when user is ""), a
// namespace's, or a table's (those on its families and columns too, narrowed to the family
// and qualifier when the scope names them). The caller needs ADMIN on the scope.
func (a *Admin) UserPermissions(ctx context.Context, scope Scope, user string) ([]UserPermission, error) {
	ctx, call := a.begin(ctx, "UserPermissions", aclName(user, scope), scope.Table)
	req, err := wire.UserPermissionsRequest(wire.ACLScope(scope), user)
	if err == nil {
		err = a.scopeExists(ctx, scope)
	}
	var out []UserPermission
	if err == nil {
		resp := &pb.GetUserPermissionsResponse{}
		if err = a.aclCall(ctx, wire.MethodGetUserPermissions, req, resp); err == nil {
			out, err = userPermissions(resp)
		}
	}
	return out, call.end(ctx, err)
}

// HasPermissions reports, for each of perms in order, whether user (the caller when "") has
// it, through its own or its groups' permissions at that scope or a wider one. Asking about
// another user needs ADMIN.
func (a *Admin) HasPermissions(ctx context.Context, user string, perms ...Permission) ([]bool, error) {
	name := user
	if name == "" {
		name = "caller"
	}
	ctx, call := a.begin(ctx, "HasPermissions", name, "")
	ps := make([]*pb.Permission, 0, len(perms))
	for _, p := range perms {
		pp, err := wire.ACLPermission(wire.ACLScope(p.Scope), actionNames(p.Actions))
		if err != nil {
			return nil, call.end(ctx, fmt.Errorf("%s: %w", p.Scope, err))
		}
		ps = append(ps, pp)
	}
	req, err := wire.HasUserPermissionsRequest(user, ps)
	var out []bool
	if err == nil {
		resp := &pb.HasUserPermissionsResponse{}
		if err = a.aclCall(ctx, wire.MethodHasUserPermissions, req, resp); err == nil {
			out, err = wire.ParseHasUserPermissions(resp, len(ps))
		}
	}
	return out, call.end(ctx, err)
}

// aclName is what an access control call's error names: "user on scope".
func aclName(user string, s Scope) string {
	if user == "" {
		return s.String()
	}
	return user + " on " + s.String()
}

// scopeExists checks that the table and family, or the namespace, a scope names exist: the
// master would keep permissions of a table that does not exist.
func (a *Admin) scopeExists(ctx context.Context, s Scope) error {
	switch {
	case s.Table != "":
		t, err := a.describeTable(ctx, s.Table)
		if err != nil {
			return err
		}
		if s.Family != "" && t.Family(s.Family) == nil {
			return fmt.Errorf("%w: table %s has no family %q", hberr.ErrNoSuchFamily, s.Table, s.Family)
		}
	case s.Namespace != "":
		_, err := a.describeNamespace(ctx, s.Namespace)
		return err
	}
	return nil
}

// aclCall sends an access control request to the master. A master without the
// AccessController refuses it with a DoNotRetryIOException wrapping an
// UnsupportedOperationException: that is hberr.ErrNotSupported.
func (a *Admin) aclCall(ctx context.Context, method string, req, resp proto.Message) error {
	err := a.callMaster(ctx, method, req, resp)
	if re, ok := errors.AsType[*hberr.RemoteError](err); ok && !errors.Is(err, hberr.ErrNotSupported) &&
		strings.Contains(re.Message, "UnsupportedOperationException") && strings.Contains(re.Message, "AccessController") {
		return fmt.Errorf("%w: the cluster does not load HBase's AccessController: %w", hberr.ErrNotSupported, err)
	}
	return err
}

// userPermissions converts the master's listing.
func userPermissions(resp *pb.GetUserPermissionsResponse) ([]UserPermission, error) {
	entries, err := wire.ParseUserPermissions(resp)
	if err != nil {
		return nil, err
	}
	out := make([]UserPermission, len(entries))
	for i, e := range entries {
		acts := make([]Action, len(e.Actions))
		for j, s := range e.Actions {
			acts[j] = Action(s)
		}
		out[i] = UserPermission{User: e.User, Scope: Scope(e.Scope), Actions: acts}
	}
	return out, nil
}
