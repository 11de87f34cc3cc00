package wire

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// Cell-level security travels as attributes of the operation (OperationWithAttributes), under
// the names HBase 2.6.1's client uses: Mutation.setTTL, Mutation.setACL,
// Mutation.setCellVisibility and Query.setAuthorizations.
const (
	// AttrTTL is a mutation's cell TTL: milliseconds as 8 bytes, big-endian (Bytes.toBytes).
	AttrTTL = "_ttl"
	// AttrACL is a mutation's cell ACL: a UsersAndPermissions message
	// (AccessControlConstants.OP_ATTRIBUTE_ACL).
	AttrACL = "acl"
	// AttrVisibility is a mutation's CellVisibility message, or a Get's or Scan's
	// Authorizations message (VisibilityConstants.VISIBILITY_LABELS_ATTR_KEY: one name for
	// both).
	AttrVisibility = "VISIBILITY"
)

// TTLValue is the value of AttrTTL for ms milliseconds.
func TTLValue(ms int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(ms)) }

// CellACLValue returns the AttrACL value prev (nil: none yet) with user's entry set to
// actions (READ and WRITE are the ones HBase checks on cells): an entry of user already there is
// replaced, others are kept in their order. Each entry holds one global-type permission, as
// the Java client's setACL(user, new Permission(actions)) writes it.
func CellACLValue(prev []byte, user string, actions []string) ([]byte, error) {
	if err := CheckACLUser(user); err != nil {
		return nil, err
	}
	acts, err := actionsProto(actions, false)
	if err != nil {
		return nil, err
	}
	var up pb.UsersAndPermissions
	if prev != nil {
		if err := proto.Unmarshal(prev, &up); err != nil {
			return nil, BadRequest("cell ACL attribute: %v", err)
		}
	}
	entry := &pb.UsersAndPermissions_UserPermissions{User: []byte(user), Permissions: []*pb.Permission{{
		Type: pb.Permission_Global.Enum(), GlobalPermission: &pb.GlobalPermission{Action: acts}}}}
	replaced := false
	for i, e := range up.UserPermissions {
		if string(e.GetUser()) == user {
			up.UserPermissions[i], replaced = entry, true
		}
	}
	if !replaced {
		up.UserPermissions = append(up.UserPermissions, entry)
	}
	return proto.Marshal(&up)
}

// VisibilityValue is the AttrVisibility value of a mutation labelled with expr, checked
// first (CheckVisibilityExpression).
func VisibilityValue(expr string) ([]byte, error) {
	if err := CheckVisibilityExpression(expr); err != nil {
		return nil, err
	}
	return proto.Marshal(&pb.CellVisibility{Expression: &expr})
}

// AuthorizationsValue is the AttrVisibility value of a Get or Scan reading with labels.
func AuthorizationsValue(labels []string) ([]byte, error) {
	for _, l := range labels {
		switch {
		case strings.TrimSpace(l) == "":
			return nil, visibilityError("an empty authorization label")
		case !utf8.ValidString(l):
			return nil, visibilityError("authorization label %q is not UTF-8", l)
		}
	}
	return proto.Marshal(&pb.Authorizations{Label: labels})
}

func visibilityError(format string, args ...any) error {
	return fmt.Errorf("hrpc: %w: %w: %s", hberr.ErrBadRequest, hberr.ErrVisibilityExpression, fmt.Sprintf(format, args...))
}

// CheckVisibilityExpression checks expr against the grammar of HBase's ExpressionParser:
// labels joined by & and |, left to right without precedence, grouped by parentheses, each
// label or group negated by ! written right before it. A label is letters, digits and
// "_-:./", or any text in double quotes (\" and \\ inside). Spaces may surround everything
// but the operand of a !. The server parses it again and checks that its labels are defined.
func CheckVisibilityExpression(expr string) error {
	if !utf8.ValidString(expr) {
		return visibilityError("expression %q is not UTF-8", expr)
	}
	p := exprParser{s: strings.TrimSpace(expr)}
	if p.s == "" {
		return visibilityError("empty expression")
	}
	if err := p.expression(0); err != nil {
		return err
	}
	if p.i < len(p.s) {
		return p.fail("unexpected %q", p.s[p.i])
	}
	return nil
}

// maxExpressionDepth bounds the nesting of parentheses, so that a hostile expression cannot
// exhaust the stack.
const maxExpressionDepth = 1000

type exprParser struct {
	s string
	i int
}

func (p *exprParser) fail(format string, args ...any) error {
	return visibilityError("%q at column %d: %s", p.s, p.i, fmt.Sprintf(format, args...))
}

func (p *exprParser) spaces() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

// expression reads operand (op operand)*, stopping before a ')' or at the end.
func (p *exprParser) expression(depth int) error {
	if err := p.operand(depth); err != nil {
		return err
	}
	for {
		p.spaces()
		if p.i == len(p.s) || p.s[p.i] == ')' {
			return nil
		}
		if c := p.s[p.i]; c != '&' && c != '|' {
			return p.fail("want & or | after an operand, not %q", c)
		}
		p.i++
		p.spaces()
		if err := p.operand(depth); err != nil {
			return err
		}
	}
}

// operand reads !?(label | "label" | (expression)).
func (p *exprParser) operand(depth int) error {
	if p.i < len(p.s) && p.s[p.i] == '!' {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '!') {
			return p.fail("a ! must be followed by a label or a group")
		}
	}
	if p.i == len(p.s) {
		return p.fail("an operator without its operand")
	}
	switch c := p.s[p.i]; {
	case c == '(':
		if depth >= maxExpressionDepth {
			return p.fail("parentheses nested deeper than %d", maxExpressionDepth)
		}
		p.i++
		p.spaces()
		if err := p.expression(depth + 1); err != nil {
			return err
		}
		if p.i == len(p.s) {
			return p.fail("a ( without its )")
		}
		p.i++ // the ')'
		return nil
	case c == '"':
		return p.quoted()
	case labelChar(c):
		for p.i < len(p.s) && labelChar(p.s[p.i]) {
			p.i++
		}
		if p.i < len(p.s) && !strings.ContainsRune("()&|! ", rune(p.s[p.i])) {
			return p.fail("%q in a label (quote labels of other characters)", p.s[p.i])
		}
		return nil
	default:
		return p.fail("want a label, a quoted label or a (, not %q", c)
	}
}

// quoted reads "..." with \" and \\ escapes; the label inside must not be blank.
func (p *exprParser) quoted() error {
	p.i++ // the opening quote
	var label strings.Builder
	for p.i < len(p.s) && p.s[p.i] != '"' {
		if p.s[p.i] == '\\' {
			p.i++
			if p.i == len(p.s) || (p.s[p.i] != '\\' && p.s[p.i] != '"') {
				return p.fail("only \\\" and \\\\ may be escaped in quotes")
			}
		}
		label.WriteByte(p.s[p.i])
		p.i++
	}
	if p.i == len(p.s) {
		return p.fail("a quoted label without its closing quote")
	}
	p.i++
	if strings.TrimSpace(label.String()) == "" {
		return p.fail("an empty quoted label")
	}
	return nil
}

// labelChar reports whether c may appear in an unquoted label
// (VisibilityLabelsValidator.isValidAuthChar).
func labelChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == ':' || c == '.' || c == '/'
}

// QuoteLabel quotes label for an expression, escaping '"' and '\' (CellVisibility.quote).
func QuoteLabel(label string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(label); i++ {
		if c := label[i]; c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(label[i])
	}
	b.WriteByte('"')
	return b.String()
}
