package wire

import (
	"fmt"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// Names of tables, namespaces, families and snapshots are checked as HBase checks them
// (TableName.isLegalNamespaceName, isLegalTableQualifierName, ColumnFamilyDescriptorBuilder),
// so a bad name fails before anything is sent, with an error wrapping hberr.ErrBadRequest and
// hberr.ErrInvalidName.

// DefaultNamespace is the namespace of a table named without one (hrpc.DefaultNamespace).
const DefaultNamespace = "default"

// maxNameLen bounds table, namespace and snapshot names; HBase keeps them in region names and
// file paths, so a few hundred bytes is already generous.
const maxNameLen = 255

func invalidName(format string, args ...any) error {
	return fmt.Errorf("hrpc: %w: %w: %s", hberr.ErrBadRequest, hberr.ErrInvalidName, fmt.Sprintf(format, args...))
}

// SplitTableName splits "ns:qualifier" (or "qualifier", in DefaultNamespace) after checking
// both parts.
func SplitTableName(table string) (namespace, qualifier string, err error) {
	namespace, qualifier, ok := strings.Cut(table, ":")
	if !ok {
		namespace, qualifier = DefaultNamespace, table
	}
	if err := CheckNamespaceName(namespace); err != nil {
		return "", "", fmt.Errorf("table %q: %w", table, err)
	}
	if err := checkQualifier(qualifier, "table"); err != nil {
		return "", "", fmt.Errorf("table %q: %w", table, err)
	}
	return namespace, qualifier, nil
}

// CheckTableName reports whether table ("ns:qualifier" or "qualifier") is a legal table name.
func CheckTableName(table string) error {
	_, _, err := SplitTableName(table)
	return err
}

// CheckNamespaceName reports whether ns is a legal namespace name: letters, digits and '_'.
func CheckNamespaceName(ns string) error {
	if ns == "" {
		return invalidName("empty namespace")
	}
	if len(ns) > maxNameLen {
		return invalidName("namespace of %d bytes is longer than %d", len(ns), maxNameLen)
	}
	for i := 0; i < len(ns); i++ {
		if c := ns[i]; !isAlnum(c) && c != '_' {
			return invalidName("namespace %q: illegal character %q at %d (letters, digits and '_' only)", ns, c, i)
		}
	}
	return nil
}

// CheckSnapshotName reports whether name is a legal snapshot name (the rules of a table
// qualifier).
func CheckSnapshotName(name string) error { return checkQualifier(name, "snapshot") }

// checkQualifier applies the rules of a table qualifier: letters, digits, '_', '-' and '.',
// not starting with '.' or '-'.
func checkQualifier(q, what string) error {
	if q == "" {
		return invalidName("empty %s name", what)
	}
	if len(q) > maxNameLen {
		return invalidName("%s name of %d bytes is longer than %d", what, len(q), maxNameLen)
	}
	if q[0] == '.' || q[0] == '-' {
		return invalidName("%s name %q: illegal first character %q", what, q, q[0])
	}
	for i := 0; i < len(q); i++ {
		if c := q[i]; !isAlnum(c) && c != '_' && c != '-' && c != '.' {
			return invalidName("%s name %q: illegal character %q at %d (letters, digits, '_', '-' and '.' only)", what, q, c, i)
		}
	}
	return nil
}

// CheckFamilyName reports whether name is a legal column family name: not empty, not starting
// with '.', printable ASCII without ':'.
func CheckFamilyName(name string) error {
	if name == "" {
		return invalidName("empty column family name")
	}
	if len(name) > MaxFamilyLen {
		return invalidName("column family name of %d bytes is longer than %d", len(name), MaxFamilyLen)
	}
	if name[0] == '.' {
		return invalidName("column family %q starts with '.'", name)
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < ' ' || c > '~' || c == ':' {
			return invalidName("column family %q: illegal character %q at %d (no control characters or ':')", name, c, i)
		}
	}
	return nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// TableNameProto builds the TableName message of a checked name.
func TableNameProto(table string) (*pb.TableName, error) {
	ns, q, err := SplitTableName(table)
	if err != nil {
		return nil, err
	}
	return &pb.TableName{Namespace: []byte(ns), Qualifier: []byte(q)}, nil
}

// TableNameString returns the name of tn as HBase prints it: "qualifier" in the default
// namespace, "ns:qualifier" elsewhere.
func TableNameString(tn *pb.TableName) string {
	ns := string(tn.GetNamespace())
	if ns == "" || ns == DefaultNamespace {
		return string(tn.GetQualifier())
	}
	return ns + ":" + string(tn.GetQualifier())
}
