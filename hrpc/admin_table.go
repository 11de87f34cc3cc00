package hrpc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// CreateTableOption configures how Admin.CreateTable splits the new table into regions.
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

// splitKeys applies the CreateTableOptions: the keys to split the new table at.
func splitKeys(opts []CreateTableOption) ([][]byte, error) {
	var c createTable
	for _, o := range opts {
		if o == nil {
			return nil, invalid("nil CreateTableOption")
		}
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	return c.splits, nil
}

// ListTablesOption narrows the tables Admin.ListTables lists.
type ListTablesOption func(*listTables) error

type listTables struct {
	regex, namespace *string
	system           bool
}

// TableRegex keeps the tables whose full name ("ns:qualifier", or "qualifier" in the default
// namespace) matches the Java regular expression re as a whole.
func TableRegex(re string) ListTablesOption {
	return func(l *listTables) error {
		if re == "" {
			return invalid("empty table regex")
		}
		l.regex = &re
		return nil
	}
}

// InNamespace keeps the tables of namespace ns.
func InNamespace(ns string) ListTablesOption {
	return func(l *listTables) error {
		if err := wire.CheckNamespaceName(ns); err != nil {
			return err
		}
		l.namespace = &ns
		return nil
	}
}

// IncludeSystemTables lists HBase's own tables (hbase:meta, hbase:namespace...) too.
func IncludeSystemTables() ListTablesOption {
	return func(l *listTables) error {
		l.system = true
		return nil
	}
}

// listTablesRequest builds the request for the names of the tables opts select.
func listTablesRequest(opts []ListTablesOption) (*pb.GetTableNamesRequest, error) {
	var l listTables
	for _, o := range opts {
		if o == nil {
			return nil, invalid("nil ListTablesOption")
		}
		if err := o(&l); err != nil {
			return nil, err
		}
	}
	r := &pb.GetTableNamesRequest{Regex: l.regex, Namespace: l.namespace}
	if l.system {
		r.IncludeSysTables = new(true)
	}
	return r, nil
}
