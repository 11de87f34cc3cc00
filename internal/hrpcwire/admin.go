package hrpcwire

import (
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// The admin requests that take hrpc's descriptors and regions: hrpc's conversion of the
// argument (checked as the hrpc constructors check it), then internal/wire's request.

// CreateTableRequest builds the request creating t, pre-split as opts say.
func CreateTableRequest(t *hrpc.TableDescriptor, n wire.Nonce, opts ...hrpc.CreateTableOption) (*pb.CreateTableRequest, error) {
	splits, err := SplitKeys(opts)
	if err != nil {
		return nil, err
	}
	s, err := TableSchema(t)
	if err != nil {
		return nil, err
	}
	return wire.CreateTableRequest(s, splits, n), nil
}

// ModifyTableRequest builds the request replacing the descriptor of t.Name by t.
func ModifyTableRequest(t *hrpc.TableDescriptor, n wire.Nonce) (*pb.ModifyTableRequest, error) {
	s, err := TableSchema(t)
	if err != nil {
		return nil, err
	}
	return wire.ModifyTableRequest(s, n), nil
}

// AddColumnRequest builds the request adding family f to table.
func AddColumnRequest(table string, f *hrpc.FamilyDescriptor, n wire.Nonce) (*pb.AddColumnRequest, error) {
	if err := wire.CheckTableName(table); err != nil {
		return nil, err
	}
	fs, err := FamilySchema(f)
	if err != nil {
		return nil, err
	}
	return wire.AddColumnRequest(table, fs, n)
}

// ModifyColumnRequest builds the request replacing the descriptor of family f.Name of table.
func ModifyColumnRequest(table string, f *hrpc.FamilyDescriptor, n wire.Nonce) (*pb.ModifyColumnRequest, error) {
	if err := wire.CheckTableName(table); err != nil {
		return nil, err
	}
	fs, err := FamilySchema(f)
	if err != nil {
		return nil, err
	}
	return wire.ModifyColumnRequest(table, fs, n)
}

// CreateNamespaceRequest builds the request creating ns.
func CreateNamespaceRequest(ns *hrpc.NamespaceDescriptor, n wire.Nonce) (*pb.CreateNamespaceRequest, error) {
	p, err := NamespaceProto(ns)
	if err != nil {
		return nil, err
	}
	return wire.CreateNamespaceRequest(p, n), nil
}

// ModifyNamespaceRequest builds the request replacing the properties of ns.Name.
func ModifyNamespaceRequest(ns *hrpc.NamespaceDescriptor, n wire.Nonce) (*pb.ModifyNamespaceRequest, error) {
	p, err := NamespaceProto(ns)
	if err != nil {
		return nil, err
	}
	return wire.ModifyNamespaceRequest(p, n), nil
}

// SplitRegionRequest builds the request splitting r at key (nil: the server picks the
// midpoint). The key must fall strictly inside the region.
func SplitRegionRequest(r *hrpc.Region, key []byte, n wire.Nonce) (*pb.SplitTableRegionRequest, error) {
	name, info := regionOf(r)
	return wire.SplitRegionRequest(name, info, key, n)
}

// MoveRegionRequest builds the request moving a region (encoded name) to dest, or to a server
// the master picks when dest is nil.
func MoveRegionRequest(encoded string, dest *hrpc.ServerName) (*pb.MoveRegionRequest, error) {
	var to *pb.ServerName
	if dest != nil {
		to = ServerNameProto(*dest)
	}
	return wire.MoveRegionRequest(encoded, to)
}

// AssignRegionRequest builds the request assigning r to a server.
func AssignRegionRequest(r *hrpc.Region) (*pb.AssignRegionRequest, error) {
	return wire.AssignRegionRequest(regionOf(r))
}

// UnassignRegionRequest builds the request closing r (it stays closed until assigned).
func UnassignRegionRequest(r *hrpc.Region) (*pb.UnassignRegionRequest, error) {
	return wire.UnassignRegionRequest(regionOf(r))
}

// FlushRegionRequest builds the request, sent to r's server (AdminService), writing r's
// memstore to store files.
func FlushRegionRequest(r *hrpc.Region) (*pb.FlushRegionRequest, error) {
	return wire.FlushRegionRequest(regionOf(r))
}

// CompactRegionRequest builds the request, sent to r's server, queueing a (major) compaction
// of r; the server answers before the compaction runs.
func CompactRegionRequest(r *hrpc.Region, major bool) (*pb.CompactRegionRequest, error) {
	name, info := regionOf(r)
	return wire.CompactRegionRequest(name, info, major)
}

// regionOf is r's full name and RegionInfo; nil info for a nil r or one not read from
// hbase:meta, which the builders refuse.
func regionOf(r *hrpc.Region) ([]byte, *pb.RegionInfo) {
	if r == nil {
		return nil, nil
	}
	return r.Name, RegionInfo(r)
}
