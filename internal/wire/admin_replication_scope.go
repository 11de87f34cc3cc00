package wire

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// A table's replication switch is its families' REPLICATION_SCOPE attribute: 1 (global) ships
// the family's edits to the replication peers, 0 (local, also when absent) keeps them here.
// The Admin's table replication calls read and set it on the table's schema as the master
// sends it, whatever the descriptor types make of the attribute.

// replicationScopeKey is the family attribute of the scope.
var replicationScopeKey = []byte("REPLICATION_SCOPE")

// Replication scopes (HConstants.REPLICATION_SCOPE_LOCAL, _GLOBAL).
const (
	ScopeLocal  = 0
	ScopeGlobal = 1
)

// familyScope is the REPLICATION_SCOPE of family f (0 when absent or not a number).
func familyScope(f *pb.ColumnFamilySchema) int {
	for _, a := range f.GetAttributes() {
		if bytes.Equal(a.GetFirst(), replicationScopeKey) {
			n, _ := strconv.Atoi(string(a.GetSecond()))
			return n
		}
	}
	return ScopeLocal
}

// ReplicatedFamilies returns the families of s whose scope is not local, in the schema's order.
func ReplicatedFamilies(s *pb.TableSchema) []string {
	var out []string
	for _, f := range s.GetColumnFamilies() {
		if familyScope(f) != ScopeLocal {
			out = append(out, string(f.GetName()))
		}
	}
	return out
}

// ScopeMatches reports whether every family of s is replicated (on) or none is (!on), as
// HBase's TableDescriptor.matchReplicationScope: then the switch needs no change.
func ScopeMatches(s *pb.TableSchema, on bool) bool {
	for _, f := range s.GetColumnFamilies() {
		if (familyScope(f) != ScopeLocal) != on {
			return false
		}
	}
	return true
}

// SetScope sets the scope of every family of s to scope.
func SetScope(s *pb.TableSchema, scope int) {
	v := []byte(strconv.Itoa(scope))
	for _, f := range s.GetColumnFamilies() {
		i := slices.IndexFunc(f.Attributes, func(a *pb.BytesBytesPair) bool { return bytes.Equal(a.GetFirst(), replicationScopeKey) })
		if i < 0 {
			f.Attributes = append(f.Attributes, &pb.BytesBytesPair{First: replicationScopeKey, Second: v})
		} else {
			f.Attributes[i] = &pb.BytesBytesPair{First: replicationScopeKey, Second: v}
		}
	}
}

// SameIgnoringScope reports whether two schemas describe the same table but for their
// families' replication scopes (HBase's TableDescriptor.COMPARATOR_IGNORE_REPLICATION): the
// same name, attributes, configuration and families, whatever the order of families,
// attributes and configuration keys.
func SameIgnoringScope(a, b *pb.TableSchema) bool {
	return proto.Equal(normalized(a), normalized(b))
}

// normalized is a copy of s without scopes, its families, attributes and configuration sorted.
func normalized(s *pb.TableSchema) *pb.TableSchema {
	c := proto.Clone(s).(*pb.TableSchema)
	sortPairs(c.Attributes)
	sortNamePairs(c.Configuration)
	slices.SortFunc(c.ColumnFamilies, func(x, y *pb.ColumnFamilySchema) int { return bytes.Compare(x.GetName(), y.GetName()) })
	for _, f := range c.ColumnFamilies {
		f.Attributes = slices.DeleteFunc(f.Attributes, func(a *pb.BytesBytesPair) bool { return bytes.Equal(a.GetFirst(), replicationScopeKey) })
		sortPairs(f.Attributes)
		sortNamePairs(f.Configuration)
	}
	return c
}

func sortPairs(p []*pb.BytesBytesPair) {
	slices.SortFunc(p, func(x, y *pb.BytesBytesPair) int { return bytes.Compare(x.GetFirst(), y.GetFirst()) })
}

func sortNamePairs(p []*pb.NameStringPair) {
	slices.SortFunc(p, func(x, y *pb.NameStringPair) int {
		switch {
		case x.GetName() < y.GetName():
			return -1
		case x.GetName() > y.GetName():
			return 1
		}
		return 0
	})
}

// AllTableDescriptorsRequest builds the request for the descriptor of every user table.
func AllTableDescriptorsRequest() *pb.GetTableDescriptorsRequest {
	return &pb.GetTableDescriptorsRequest{}
}
