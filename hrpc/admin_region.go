package hrpc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net"
	"strconv"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
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

// parseMetaRow reads a row of hbase:meta (the cells of family info). It returns nil for a row
// that is no usable region: no info:regioninfo (a table state row), or a split parent or
// offline region waiting to be cleaned up.
func parseMetaRow(cells []Cell) (*Region, error) {
	if len(cells) == 0 {
		return nil, nil
	}
	r := &Region{Name: bytes.Clone(cells[0].Row)}
	var host string
	var port int
	for i := range cells {
		c := &cells[i]
		if !bytes.Equal(c.Family, wire.MetaInfoFamily) {
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
	r.Encoded = wire.EncodedRegionName(r.Name)
	r.Table = wire.TableNameString(r.info.GetTableName())
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

// String describes the region for messages.
func (r *Region) String() string {
	return fmt.Sprintf("%s [%q, %q) on %s", r.Encoded, r.Start, r.End, r.Server.Addr())
}
