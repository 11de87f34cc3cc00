package hberr

import (
	"errors"
	"strings"
)

// Sentinels of access control and cell-level security (package admin's Grant, Revoke and
// permission calls; hrpc's cell ACL, visibility and authorization options).
var (
	// ErrPermissionDenied: the server's AccessController (or VisibilityController) refused the
	// call to the user it authenticated (AccessDeniedException): a read or write of a table,
	// family or column the user has no right to, an admin call without ADMIN or CREATE, a
	// grant by a user who may not grant. Also ErrDoNotRetry. The message is the server's and
	// names the user, the scope and the action; Denied reads them.
	ErrPermissionDenied = errors.New("permission denied")
	// ErrVisibilityExpression: a visibility expression (hrpc.CellVisibility) or an
	// authorization label (hrpc.Authorizations) that HBase's grammar refuses: an unbalanced
	// parenthesis, an operator without an operand, a character outside a label's set
	// without quotes. Found by the client before anything is sent; also ErrBadRequest.
	ErrVisibilityExpression = errors.New("invalid visibility expression")
	// ErrVisibilityLabel: a visibility expression names a label the cluster has not defined
	// (VisibilityController refuses the mutation: "Invalid visibility label x"). Also
	// ErrDoNotRetry. Labels are defined with the visibility labels admin.
	ErrVisibilityLabel = errors.New("undefined visibility label")
)

// Denial is what a permission refusal (ErrPermissionDenied) says was refused, as the server
// wrote it in its message. Fields the message does not name are empty.
type Denial struct {
	// User is the user refused, as the server names it: the full principal
	// ("guest@EXAMPLE.COM") or its short name ("guest").
	User string
	// Scope is "GLOBAL", a namespace or a table ("ns:table", "table" in the default
	// namespace).
	Scope string
	// Family is the family and qualifier the refusal is about when the server names them
	// ("f", "f:q", several joined by '|'), as text.
	Family string
	// Action is the action refused: READ, WRITE, EXEC, CREATE or ADMIN.
	Action string
}

// Denied returns what the permission refusal in err's chain says was refused, and whether
// there is one (an AccessDeniedException whose message names at least the user or the
// action). HBase words its refusals in a few ways ("Insufficient permissions (user=...,
// scope=..., action=...)", "Insufficient permissions for user 'u' (table=t, action=READ)",
// "... (global, action=ADMIN)"); each is read as written.
func Denied(err error) (Denial, bool) {
	re, ok := errors.AsType[*RemoteError](err)
	if !ok || simpleName(re.Class) != "AccessDeniedException" {
		return Denial{}, false
	}
	d := parseDenial(re.Message)
	return d, d.User != "" || d.Action != ""
}

// parseDenial reads the three forms of HBase 2.x's AccessDeniedException messages. Families
// and qualifiers are arbitrary bytes, so the fields are cut from both ends: the user and scope
// from the front, the action from the back, and the family is what lies between.
func parseDenial(msg string) Denial {
	const forUser = "Insufficient permissions for user '"
	if rest, ok := strings.CutPrefix(msg, forUser); ok {
		// "...for user 'u' (table=t, action=READ)" or "(global, action=ADMIN)".
		i := strings.LastIndex(rest, "' (")
		if i < 0 {
			return Denial{}
		}
		d := Denial{User: rest[:i]}
		ctx := strings.TrimSuffix(rest[i+3:], ")")
		j := strings.LastIndex(ctx, "action=")
		if j < 0 {
			return d
		}
		d.Action = ctx[j+len("action="):]
		scope := strings.TrimSuffix(strings.TrimSuffix(ctx[:j], " "), ",")
		switch {
		case scope == "global":
			d.Scope = "GLOBAL"
		case strings.HasPrefix(scope, "table="):
			d.Scope = scope[len("table="):]
		}
		return d
	}
	rest, ok := strings.CutPrefix(msg, "Insufficient permissions (user=")
	if !ok || !strings.HasSuffix(rest, ")") {
		return Denial{}
	}
	rest = rest[:len(rest)-1]
	var d Denial
	j := strings.LastIndex(rest, "action=")
	if j < 0 {
		return Denial{}
	}
	d.Action = rest[j+len("action="):]
	head := rest[:j]
	i := strings.Index(head, ", scope=")
	if i < 0 {
		return Denial{}
	}
	d.User = head[:i]
	head = head[i+len(", scope="):]
	k := strings.Index(head, ", ")
	if k < 0 {
		return d
	}
	d.Scope, head = head[:k], head[k+2:]
	if fam, ok := strings.CutPrefix(head, "family="); ok {
		// The family ends where the parameters begin, or with the ", " before the action.
		if p := strings.Index(fam, ", params=["); p >= 0 {
			fam = fam[:p]
		} else {
			fam = strings.TrimSuffix(fam, ", ")
		}
		d.Family = fam
	}
	return d
}

// classifySecurity adds the meaning VisibilityController puts in a message rather than a
// class: a mutation naming an undefined label fails its sanity check.
func (e *RemoteError) classifySecurity(name string) {
	if name == "FailedSanityCheckException" && strings.HasPrefix(e.Message, "Invalid visibility label ") {
		e.kinds = []error{ErrVisibilityLabel, ErrDoNotRetry}
	}
}
