package hbasetest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// validateSecurity checks the authorization options.
func validateSecurity(o *Options) error {
	if (o.AccessControl || o.Visibility || len(o.UserGroups) > 0) && !o.Secure {
		return errors.New("hbasetest: AccessControl, Visibility and UserGroups need Secure")
	}
	for u, groups := range o.UserGroups {
		if !plainName(u) {
			return fmt.Errorf("hbasetest: UserGroups: bad user name %q", u)
		}
		for _, g := range groups {
			if !plainName(g) {
				return fmt.Errorf("hbasetest: UserGroups: user %s: bad group name %q", u, g)
			}
		}
	}
	return nil
}

// plainName reports whether s can be a user or group of the static group mapping, whose
// syntax is "user=g1,g2;user2=".
func plainName(s string) bool {
	return s != "" && !strings.ContainsAny(s, "=,; \t\n@")
}

// securityArgs are the launcher's flags of the authorization options.
func (c *Cluster) securityArgs() []string {
	if !c.opts.Secure {
		return nil
	}
	var args []string
	if c.opts.AccessControl {
		args = append(args, "--access-control")
	}
	if c.opts.Visibility {
		args = append(args, "--visibility")
	}
	if len(c.opts.UserGroups) > 0 {
		var m []string
		for _, u := range slices.Sorted(maps.Keys(c.opts.UserGroups)) {
			m = append(m, u+"="+strings.Join(c.opts.UserGroups[u], ","))
		}
		args = append(args, "--user-groups", strings.Join(m, ";"))
	}
	return args
}

// JavaPermission is one permission as HBase's Java client (AccessControlClient) lists it.
type JavaPermission struct {
	User      string // a user's short name, or "@group"
	Scope     string // "GLOBAL", "NAMESPACE" or "TABLE" (Permission.getAccessScope)
	Namespace string // of a NAMESPACE permission
	Table     string // of a TABLE permission: "ns:table", or "table" in the default namespace
	Family    []byte // of a TABLE permission, when it has one
	Qualifier []byte // of a TABLE permission, when it has one
	Actions   []string
}

// JavaUserPermissions lists what AccessControlClient.getUserPermissions lists on the cluster,
// run as the cluster's own principal (a superuser): tableRegex "" lists the global
// permissions (and the superusers), "@regex" the permissions of the namespaces regex matches,
// else those of the tables it matches, narrowed to family and qualifier when family is not
// nil; user, when not "", lists that user's only. It needs Options.AccessControl.
func (c *Cluster) JavaUserPermissions(ctx context.Context, tableRegex string, family, qualifier []byte, user string) ([]JavaPermission, error) {
	if family != nil && (tableRegex == "" || strings.HasPrefix(tableRegex, "@")) {
		return nil, errors.New("hbasetest: user-permissions: a family needs a table regular expression")
	}
	opt := func(b []byte) string {
		if b == nil {
			return "-"
		}
		return encodeBytes(b)
	}
	w, err := c.do(ctx, "user-permissions", encodeBytes([]byte(tableRegex)), encodeBytes([]byte(user)), opt(family), opt(qualifier))
	if err != nil {
		return nil, err
	}
	if len(w) == 0 {
		return nil, errors.New("hbasetest: user-permissions: empty answer")
	}
	n, err := strconv.Atoi(w[0])
	if err != nil {
		return nil, fmt.Errorf("hbasetest: user-permissions: bad count %q", w[0])
	}
	recs, err := parseRecords(w[1:], "perm", 7)
	if err != nil {
		return nil, err
	}
	if len(recs) != n {
		return nil, fmt.Errorf("hbasetest: user-permissions: %d permissions for a count of %d", len(recs), n)
	}
	out := make([]JavaPermission, 0, n)
	for _, r := range recs {
		var b [5][]byte
		for i, j := range []int{0, 2, 3, 4, 5} {
			if b[i], err = decodeBytes(r.fields[j]); err != nil {
				return nil, fmt.Errorf("hbasetest: user-permissions: %w", err)
			}
		}
		p := JavaPermission{User: string(b[0]), Scope: r.fields[1], Namespace: string(b[1]), Table: string(b[2])}
		if len(b[3]) > 0 {
			p.Family = b[3]
		}
		if len(b[4]) > 0 {
			p.Qualifier = b[4]
		}
		if r.fields[6] != "" {
			p.Actions = strings.Split(r.fields[6], "+")
		}
		out = append(out, p)
	}
	return out, nil
}

// AddVisibilityLabels defines visibility labels (VisibilityClient.addLabels), as the
// cluster's own principal. It needs Options.Visibility; a label defined already is an error.
func (c *Cluster) AddVisibilityLabels(ctx context.Context, labels ...string) error {
	return c.labelCommand(ctx, "visibility-labels", "", labels)
}

// SetVisibilityAuths gives user (a short name, or "@group") the visibility labels
// (VisibilityClient.setAuths), which must be defined.
func (c *Cluster) SetVisibilityAuths(ctx context.Context, user string, labels ...string) error {
	return c.labelCommand(ctx, "visibility-auths", user, labels)
}

// ClearVisibilityAuths takes the labels back from user (VisibilityClient.clearAuths).
func (c *Cluster) ClearVisibilityAuths(ctx context.Context, user string, labels ...string) error {
	return c.labelCommand(ctx, "visibility-clear-auths", user, labels)
}

func (c *Cluster) labelCommand(ctx context.Context, cmd, user string, labels []string) error {
	if len(labels) == 0 {
		return fmt.Errorf("hbasetest: %s: no label", cmd)
	}
	words := []string{cmd}
	if cmd != "visibility-labels" {
		if user == "" {
			return fmt.Errorf("hbasetest: %s: no user", cmd)
		}
		words = append(words, encodeBytes([]byte(user)))
	}
	for _, l := range labels {
		if l == "" {
			return fmt.Errorf("hbasetest: %s: empty label", cmd)
		}
		words = append(words, encodeBytes([]byte(l)))
	}
	_, err := c.do(ctx, words...)
	return err
}

// CellSecurityAttributes are the values of the operation attributes the Java client sets for
// cell-level security; nil when it sets none.
type CellSecurityAttributes struct {
	TTL            []byte // a Put's "_ttl" (Mutation.setTTL)
	ACL            []byte // a Put's "acl" (Mutation.setACL)
	Visibility     []byte // a Put's "VISIBILITY" (Mutation.setCellVisibility)
	Authorizations []byte // a Get's "VISIBILITY" (Query.setAuthorizations)
}

// JavaCellSecurityAttributes returns the attributes HBase's Java client (the launcher's
// version) puts on a Put given setTTL(ttl), setACL(aclUser, actions) (none when aclUser is
// "") and setCellVisibility(expression) (none when ""), and on a Get given
// setAuthorizations(labels): what a client must send for the same settings. Actions are
// Permission.Action names (READ, WRITE...). Nothing is sent to the cluster.
func (c *Cluster) JavaCellSecurityAttributes(ctx context.Context, ttl time.Duration, aclUser string, actions []string, expression string, labels ...string) (CellSecurityAttributes, error) {
	var out CellSecurityAttributes
	if aclUser != "" && len(actions) == 0 {
		return out, errors.New("hbasetest: cell-security-attributes: an ACL without actions")
	}
	acts := strings.Join(actions, "+")
	if acts == "" {
		acts = "-"
	}
	words := []string{"cell-security-attributes", strconv.FormatInt(ttl.Milliseconds(), 10),
		encodeBytes([]byte(aclUser)), acts, encodeBytes([]byte(expression))}
	for _, l := range labels {
		words = append(words, encodeBytes([]byte(l)))
	}
	w, err := c.do(ctx, words...)
	if err != nil {
		return out, err
	}
	for _, word := range w {
		k, v, _ := strings.Cut(word, "=")
		var b []byte
		if v != "-" {
			if b, err = decodeBytes(v); err != nil {
				return out, fmt.Errorf("hbasetest: cell-security-attributes: %w", err)
			}
		}
		switch k {
		case "ttl":
			out.TTL = b
		case "acl":
			out.ACL = b
		case "visibility":
			out.Visibility = b
		case "authorizations":
			out.Authorizations = b
		}
	}
	return out, nil
}
