package hrpc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/go-hbase/hbase/internal/pb"
)

// The master's requests about tables. The root package's Admin sends them over a MasterService
// connection; each builder checks its input first.

// MasterService is the service name of the master's admin interface in the connection header.
const MasterService = "MasterService"

// AdminService is the service name of a region server's admin interface.
const AdminService = "AdminService"

// Nonce identifies one admin call to the master so that sending it again (after a master
// restart) does not run it twice: the master remembers the procedure of each nonce.
type Nonce struct{ Group, Nonce uint64 }

// CreateTableOption configures CreateTableRequest: how the new table is split into regions.
type CreateTableOption func(*createTable) error

type createTable struct {
	splits [][]byte
	set    bool
}

// SplitKeys pre-splits the table at the given keys: len(keys)+1 regions. Keys must be
// non-empty and distinct; they are sorted.
func SplitKeys(keys ...[]byte) CreateTableOption {
	return func(c *createTable) error {
		if c.set {
			return invalid("more than one way of splitting the table")
		}
		c.set = true
		sorted := slices.SortedFunc(slices.Values(keys), bytes.Compare)
		for i, k := range sorted {
			if len(k) == 0 {
				return invalid("empty split key")
			}
			if i > 0 && bytes.Equal(k, sorted[i-1]) {
				return invalid("split key %q given twice", k)
			}
			c.splits = append(c.splits, bytes.Clone(k))
		}
		return nil
	}
}

// UniformSplits pre-splits the table into n regions of equal shares of the byte key space
// (HBase's UniformSplit): for keys that are hashes or random bytes.
func UniformSplits(n int) CreateTableOption {
	return func(c *createTable) error {
		if n < 2 {
			return invalid("UniformSplits(%d): need at least 2 regions", n)
		}
		var keys [][]byte
		step := ^uint64(0)/uint64(n) + 1
		for i := 1; i < n; i++ {
			k := binary.BigEndian.AppendUint64(nil, uint64(i)*step)
			keys = append(keys, bytes.TrimRight(k, "\x00"))
		}
		return SplitKeys(keys...)(c)
	}
}

// HexStringSplits pre-splits the table into n regions of equal shares of 8-hex-digit keys
// (HBase's HexStringSplit, "00000000" to "ffffffff"): for keys that start with a hex hash.
func HexStringSplits(n int) CreateTableOption {
	return func(c *createTable) error {
		if n < 2 {
			return invalid("HexStringSplits(%d): need at least 2 regions", n)
		}
		var keys [][]byte
		for i := 1; i < n; i++ {
			keys = append(keys, fmt.Appendf(nil, "%08x", uint64(i)*(1<<32)/uint64(n)))
		}
		return SplitKeys(keys...)(c)
	}
}

// CreateTableRequest builds the request creating t.
func CreateTableRequest(t *TableDescriptor, n Nonce, opts ...CreateTableOption) (*pb.CreateTableRequest, error) {
	var c createTable
	for _, o := range opts {
		if o == nil {
			return nil, invalid("nil CreateTableOption")
		}
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	s, err := t.proto()
	if err != nil {
		return nil, err
	}
	return &pb.CreateTableRequest{TableSchema: s, SplitKeys: c.splits, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// ModifyTableRequest builds the request replacing the descriptor of t.Name by t.
func ModifyTableRequest(t *TableDescriptor, n Nonce) (*pb.ModifyTableRequest, error) {
	s, err := t.proto()
	if err != nil {
		return nil, err
	}
	return &pb.ModifyTableRequest{TableName: s.TableName, TableSchema: s, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// DeleteTableRequest builds the request deleting a disabled table.
func DeleteTableRequest(table string, n Nonce) (*pb.DeleteTableRequest, error) {
	tn, err := tableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.DeleteTableRequest{TableName: tn, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// EnableTableRequest builds the request enabling a table.
func EnableTableRequest(table string, n Nonce) (*pb.EnableTableRequest, error) {
	tn, err := tableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.EnableTableRequest{TableName: tn, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// DisableTableRequest builds the request disabling a table.
func DisableTableRequest(table string, n Nonce) (*pb.DisableTableRequest, error) {
	tn, err := tableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.DisableTableRequest{TableName: tn, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// TruncateTableRequest builds the request emptying a disabled table, keeping its region
// boundaries when preserveSplits is set.
func TruncateTableRequest(table string, preserveSplits bool, n Nonce) (*pb.TruncateTableRequest, error) {
	tn, err := tableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.TruncateTableRequest{TableName: tn, PreserveSplits: &preserveSplits, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// AddColumnRequest builds the request adding family f to table.
func AddColumnRequest(table string, f *FamilyDescriptor, n Nonce) (*pb.AddColumnRequest, error) {
	tn, fs, err := familyRequest(table, f)
	if err != nil {
		return nil, err
	}
	return &pb.AddColumnRequest{TableName: tn, ColumnFamilies: fs, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// ModifyColumnRequest builds the request replacing the descriptor of family f.Name of table.
func ModifyColumnRequest(table string, f *FamilyDescriptor, n Nonce) (*pb.ModifyColumnRequest, error) {
	tn, fs, err := familyRequest(table, f)
	if err != nil {
		return nil, err
	}
	return &pb.ModifyColumnRequest{TableName: tn, ColumnFamilies: fs, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

func familyRequest(table string, f *FamilyDescriptor) (*pb.TableName, *pb.ColumnFamilySchema, error) {
	tn, err := tableNameProto(table)
	if err != nil {
		return nil, nil, err
	}
	if f == nil {
		return nil, nil, invalid("nil FamilyDescriptor")
	}
	if err := f.check(); err != nil {
		return nil, nil, err
	}
	return tn, f.proto(), nil
}

// DeleteColumnRequest builds the request removing family from table (and its data).
func DeleteColumnRequest(table, family string, n Nonce) (*pb.DeleteColumnRequest, error) {
	tn, err := tableNameProto(table)
	if err != nil {
		return nil, err
	}
	if err := CheckFamilyName(family); err != nil {
		return nil, err
	}
	return &pb.DeleteColumnRequest{TableName: tn, ColumnName: []byte(family), NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// TableStateRequest builds the request asking whether table is enabled.
func TableStateRequest(table string) (*pb.GetTableStateRequest, error) {
	tn, err := tableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.GetTableStateRequest{TableName: tn}, nil
}

// DescribeTableRequest builds the request for the descriptor of table.
func DescribeTableRequest(table string) (*pb.GetTableDescriptorsRequest, error) {
	tn, err := tableNameProto(table)
	if err != nil {
		return nil, err
	}
	return &pb.GetTableDescriptorsRequest{TableNames: []*pb.TableName{tn}, IncludeSysTables: new(true)}, nil
}

// ListTablesOption narrows ListTablesRequest.
type ListTablesOption func(*pb.GetTableNamesRequest) error

// TableRegex keeps the tables whose full name ("ns:qualifier", or "qualifier" in the default
// namespace) matches the Java regular expression re as a whole.
func TableRegex(re string) ListTablesOption {
	return func(r *pb.GetTableNamesRequest) error {
		if re == "" {
			return invalid("empty table regex")
		}
		r.Regex = &re
		return nil
	}
}

// InNamespace keeps the tables of namespace ns.
func InNamespace(ns string) ListTablesOption {
	return func(r *pb.GetTableNamesRequest) error {
		if err := CheckNamespaceName(ns); err != nil {
			return err
		}
		r.Namespace = &ns
		return nil
	}
}

// IncludeSystemTables lists HBase's own tables (hbase:meta, hbase:namespace...) too.
func IncludeSystemTables() ListTablesOption {
	return func(r *pb.GetTableNamesRequest) error {
		r.IncludeSysTables = new(true)
		return nil
	}
}

// ListTablesRequest builds the request for the names of the tables opts select.
func ListTablesRequest(opts ...ListTablesOption) (*pb.GetTableNamesRequest, error) {
	r := &pb.GetTableNamesRequest{}
	for _, o := range opts {
		if o == nil {
			return nil, invalid("nil ListTablesOption")
		}
		if err := o(r); err != nil {
			return nil, err
		}
	}
	return r, nil
}
