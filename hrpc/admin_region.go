package hrpc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net"
	"strconv"

	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// Region is one region of a table as hbase:meta records it.
type Region struct {
	Name    []byte // "table,start,id.encoded."
	Encoded string // the encoded name, what the master's region calls and the logs use
	Table   string
	Start   []byte // inclusive; empty for the first region
	End     []byte // exclusive; empty for the last region
	ID      uint64 // the region id (its creation time in ms)
	// Server is where the region is served; the zero ServerName when it is not assigned.
	Server ServerName

	info *pb.RegionInfo
}

// Contains reports whether row falls in the region's key range.
func (r *Region) Contains(row []byte) bool {
	return bytes.Compare(r.Start, row) <= 0 && (len(r.End) == 0 || bytes.Compare(row, r.End) < 0)
}

var (
	metaRegionInfo  = []byte("regioninfo")
	metaServer      = []byte("server")
	metaStartCode   = []byte("serverstartcode")
	regionInfoMagic = []byte("PBUF")
)

// ParseMetaRow reads a row of hbase:meta (the cells of family info). It returns nil for a row
// that is no usable region: no info:regioninfo (a table state row), or a split parent or
// offline region waiting to be cleaned up.
func ParseMetaRow(cells []Cell) (*Region, error) {
	if len(cells) == 0 {
		return nil, nil
	}
	r := &Region{Name: bytes.Clone(cells[0].Row)}
	var host string
	var port int
	for i := range cells {
		c := &cells[i]
		if !bytes.Equal(c.Family, MetaInfoFamily) {
			continue
		}
		switch {
		case bytes.Equal(c.Qualifier, metaRegionInfo):
			v, ok := bytes.CutPrefix(c.Value, regionInfoMagic)
			if !ok {
				return nil, badResponse("hbase:meta row %q: info:regioninfo lacks the PBUF prefix", c.Row)
			}
			r.info = &pb.RegionInfo{}
			if err := proto.Unmarshal(v, r.info); err != nil {
				return nil, badResponse("hbase:meta row %q: info:regioninfo: %v", c.Row, err)
			}
		case bytes.Equal(c.Qualifier, metaServer):
			h, p, err := net.SplitHostPort(string(c.Value))
			if err == nil {
				host = h
				port, _ = strconv.Atoi(p)
			}
		case bytes.Equal(c.Qualifier, metaStartCode):
			if len(c.Value) == 8 {
				r.Server.StartCode = binary.BigEndian.Uint64(c.Value)
			}
		}
	}
	if r.info == nil || r.info.GetSplit() || r.info.GetOffline() {
		return nil, nil
	}
	r.Encoded = EncodedRegionName(r.Name)
	r.Table = TableNameString(r.info.GetTableName())
	r.Start = bytes.Clone(r.info.GetStartKey())
	r.End = bytes.Clone(r.info.GetEndKey())
	r.ID = r.info.GetRegionId()
	if host != "" && port > 0 {
		r.Server.Host, r.Server.Port = host, port
	} else {
		r.Server = ServerName{}
	}
	return r, nil
}

func encodedSpecifier(encoded string) *pb.RegionSpecifier {
	return &pb.RegionSpecifier{Type: pb.RegionSpecifier_ENCODED_REGION_NAME.Enum(), Value: []byte(encoded)}
}

func checkRegion(r *Region) error {
	if r == nil || r.info == nil {
		return invalid("region not read from hbase:meta")
	}
	return nil
}

// SplitRegionRequest builds the request splitting r at key (nil: the server picks the
// midpoint). The key must fall strictly inside the region.
func SplitRegionRequest(r *Region, key []byte, n Nonce) (*pb.SplitTableRegionRequest, error) {
	if err := checkRegion(r); err != nil {
		return nil, err
	}
	if key != nil && (!r.Contains(key) || bytes.Equal(key, r.Start)) {
		return nil, invalid("split key %q is not inside region %s [%q, %q)", key, r.Encoded, r.Start, r.End)
	}
	return &pb.SplitTableRegionRequest{RegionInfo: r.info, SplitRow: key, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// MergeRegionsRequest builds the request merging adjacent regions (encoded names); forcible
// merges regions that are not adjacent.
func MergeRegionsRequest(encoded []string, forcible bool, n Nonce) (*pb.MergeTableRegionsRequest, error) {
	if len(encoded) < 2 {
		return nil, invalid("merging needs at least 2 regions, got %d", len(encoded))
	}
	req := &pb.MergeTableRegionsRequest{Forcible: &forcible, NonceGroup: &n.Group, Nonce: &n.Nonce}
	for _, e := range encoded {
		if e == "" {
			return nil, invalid("empty region name")
		}
		req.Region = append(req.Region, encodedSpecifier(e))
	}
	return req, nil
}

// MoveRegionRequest builds the request moving a region (encoded name) to dest, or to a server
// the master picks when dest is nil.
func MoveRegionRequest(encoded string, dest *ServerName) (*pb.MoveRegionRequest, error) {
	if encoded == "" {
		return nil, invalid("empty region name")
	}
	req := &pb.MoveRegionRequest{Region: encodedSpecifier(encoded)}
	if dest != nil {
		req.DestServerName = serverNameProto(*dest)
	}
	return req, nil
}

// AssignRegionRequest builds the request assigning r to a server.
func AssignRegionRequest(r *Region) (*pb.AssignRegionRequest, error) {
	if err := checkRegion(r); err != nil {
		return nil, err
	}
	return &pb.AssignRegionRequest{Region: regionSpecifier(r.Name)}, nil
}

// UnassignRegionRequest builds the request closing r (it stays closed until assigned).
func UnassignRegionRequest(r *Region) (*pb.UnassignRegionRequest, error) {
	if err := checkRegion(r); err != nil {
		return nil, err
	}
	return &pb.UnassignRegionRequest{Region: regionSpecifier(r.Name)}, nil
}

// FlushRegionRequest builds the request, sent to r's server (AdminService), writing r's
// memstore to store files.
func FlushRegionRequest(r *Region) (*pb.FlushRegionRequest, error) {
	if err := checkRegion(r); err != nil {
		return nil, err
	}
	return &pb.FlushRegionRequest{Region: regionSpecifier(r.Name)}, nil
}

// CompactRegionRequest builds the request, sent to r's server, queueing a (major) compaction
// of r; the server answers before the compaction runs.
func CompactRegionRequest(r *Region, major bool) (*pb.CompactRegionRequest, error) {
	if err := checkRegion(r); err != nil {
		return nil, err
	}
	return &pb.CompactRegionRequest{Region: regionSpecifier(r.Name), Major: &major}, nil
}

// String describes the region for messages.
func (r *Region) String() string {
	return fmt.Sprintf("%s [%q, %q) on %s", r.Encoded, r.Start, r.End, r.Server.Addr())
}
