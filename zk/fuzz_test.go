package zk

import (
	"encoding/binary"
	"errors"
	"net"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// znode builds znode data as HBase writes it: the metadata header (magic, id length, id),
// "PBUF" and the protobuf.
func znode(id string, m proto.Message) []byte {
	b := []byte{metaMagic, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(len(id)))
	b = append(append(b, id...), pbMagic...)
	msg, _ := proto.Marshal(m)
	return append(b, msg...)
}

// FuzzZNodes feeds the data of the meta-region-server and master znodes, which a ZooKeeper
// ensemble hands over as HBase (or anything else) wrote it: never a panic, every failure is
// ErrBadZNode, and a success names a host:port.
func FuzzZNodes(f *testing.F) {
	sn := &pb.ServerName{HostName: proto.String("rs1.example.com"), Port: proto.Uint32(16020), StartCode: proto.Uint64(1)}
	f.Add(znode("1234@host", &pb.MetaRegionServer{Server: sn, State: pb.RegionState_OPEN.Enum()}))
	f.Add(znode("", &pb.Master{Master: sn}))
	f.Add([]byte{metaMagic, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte("PBUF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(what, addr string, err error) {
			if err != nil {
				if !errors.Is(err, ErrBadZNode) {
					t.Fatalf("%s: error %v does not wrap ErrBadZNode", what, err)
				}
				return
			}
			if h, _, err := net.SplitHostPort(addr); err != nil || h == "" {
				t.Fatalf("%s: address %q is not host:port", what, addr)
			}
		}
		loc, err := parseMetaRegionServer(data)
		check("meta-region-server", loc.addr, err)
		addr, err := parseMaster(data)
		check("master", addr, err)
	})
}
