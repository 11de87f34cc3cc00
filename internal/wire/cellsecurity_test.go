package wire

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// The expressions HBase's ExpressionParser (2.6.1) accepts and refuses, by its rules: labels of
// [A-Za-z0-9_-:./] or quoted, & and | between operands, ! right before one, parentheses, spaces
// anywhere but after a !.
func TestCheckVisibilityExpression(t *testing.T) {
	for _, ok := range []string{
		"secret",
		" secret ",
		"a&b", "a & b", "a|b&c", "(a|b)&c", "a&(b|c)", "((a))", "!a", "!a&b", "a&!b", "!(a|b)",
		"( a & b ) | c", "(!a)", "!(!a)", "a:b/c.d-e_f", `"a b"`, "\"café\"", `"x\"y"`, `"x\\y"`,
		`"a"&b`, "a&\"(b)\"",
	} {
		if err := CheckVisibilityExpression(ok); err != nil {
			t.Errorf("%q: %v; want it accepted", ok, err)
		}
	}
	for _, bad := range []string{
		"", "   ", "a&", "&a", "a||b", "a b", "a(b)", "a!", "!!a", "! a", "!", "()", "(a", "a)",
		"(a&)", "a&()", "a#b", "é", `"a`, `""`, `"  "`, `"a\b"`, `"a\`, `"a"b`, "a\"b\"", "\xff",
		strings.Repeat("(", 2000) + "a" + strings.Repeat(")", 2000),
	} {
		err := CheckVisibilityExpression(bad)
		if !errors.Is(err, hberr.ErrVisibilityExpression) || !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("%q: %v; want ErrVisibilityExpression and ErrBadRequest", bad, err)
		}
	}
}

func FuzzCheckVisibilityExpression(f *testing.F) {
	for _, s := range []string{"a&(b|!c)", `"x\"y"|z`, "((a))", "a&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = CheckVisibilityExpression(s) // must not panic
	})
}

func TestQuoteLabel(t *testing.T) {
	for _, l := range []string{"a b", `x"y`, `x\y`, "(|&!)", "café"} {
		q := QuoteLabel(l)
		if err := CheckVisibilityExpression(q); err != nil {
			t.Errorf("QuoteLabel(%q) = %q: %v", l, q, err)
		}
	}
	if got := QuoteLabel(`a"b\c`); got != `"a\"b\\c"` {
		t.Errorf(`QuoteLabel = %s; want "a\"b\\c"`, got)
	}
}

// The attribute values, as HBase 2.6.1's Java client writes them (the launcher's
// cell-security-attributes command printed these bytes for setTTL(5000),
// setACL("guest", READ), setCellVisibility("secret|(ops&!intern)") and
// setAuthorizations("secret", "ops"); internal/securitytest compares them again on each run).
func TestCellSecurityValues(t *testing.T) {
	const (
		javaTTL   = "0000000000001388"
		javaACL   = "0a0f0a0567756573741206080112020800"
		javaVis   = "0a147365637265747c286f70732621696e7465726e29"
		javaAuths = "0a067365637265740a036f7073"
	)
	check := func(name string, got []byte, err error, want string) {
		t.Helper()
		if err != nil || hex.EncodeToString(got) != want {
			t.Errorf("%s = %x, %v; want %s", name, got, err, want)
		}
	}
	check("TTLValue", TTLValue(5000), nil, javaTTL)
	acl, err := CellACLValue(nil, "guest", []string{"READ"})
	check("CellACLValue", acl, err, javaACL)
	vis, err := VisibilityValue("secret|(ops&!intern)")
	check("VisibilityValue", vis, err, javaVis)
	auths, err := AuthorizationsValue([]string{"secret", "ops"})
	check("AuthorizationsValue", auths, err, javaAuths)

	// Entries accumulate per user; a user's later entry replaces its first, in place.
	v, err := CellACLValue(acl, "@ops", []string{"READ", "WRITE"})
	if err != nil {
		t.Fatal(err)
	}
	v, err = CellACLValue(v, "guest", []string{"WRITE"})
	if err != nil {
		t.Fatal(err)
	}
	var up pb.UsersAndPermissions
	if err := proto.Unmarshal(v, &up); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range up.GetUserPermissions() {
		s := string(e.GetUser()) + ":"
		for _, a := range e.GetPermissions()[0].GetGlobalPermission().GetAction() {
			s += a.String() + " "
		}
		got = append(got, s)
	}
	if want := []string{"guest:WRITE ", "@ops:READ WRITE "}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("ACL entries = %q; want %q", got, want)
	}
	if _, err := CellACLValue(nil, "", []string{"READ"}); !errors.Is(err, hberr.ErrBadRequest) {
		t.Errorf("CellACLValue for no user = %v", err)
	}
	for _, labels := range [][]string{{""}, {"a", " "}, {"\xff"}} {
		if _, err := AuthorizationsValue(labels); !errors.Is(err, hberr.ErrVisibilityExpression) {
			t.Errorf("AuthorizationsValue(%q) = %v; want ErrVisibilityExpression", labels, err)
		}
	}
}
