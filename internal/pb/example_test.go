package pb_test

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// Every call on an HBase connection starts with a RequestHeader. Fields are
// proto2 pointers, so the proto.String/Uint32/Bool helpers set them.
func ExampleRequestHeader() {
	hdr := &pb.RequestHeader{
		CallId:       proto.Uint32(1),
		MethodName:   proto.String("Get"),
		RequestParam: proto.Bool(true),
	}
	b, err := proto.Marshal(hdr)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("% x\n", b)
	// Output: 08 01 1a 03 47 65 74 20 01
}

// The /hbase/meta-region-server znode holds 0xff, a 4-byte id length, the id,
// "PBUF" and then a MetaRegionServer.
func ExampleMetaRegionServer() {
	znode := []byte("\xff\x00\x00\x00\x02idPBUF" +
		"\x0a\x0b\x0a\x04host\x10\x94\x7d\x18\x05" + // ServerName host:16020, start code 5
		"\x18\x03") // state OPEN
	idLen := int(znode[1])<<24 | int(znode[2])<<16 | int(znode[3])<<8 | int(znode[4])
	body := znode[5+idLen+len("PBUF"):]

	var m pb.MetaRegionServer
	if err := proto.Unmarshal(body, &m); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.GetServer().GetHostName(), m.GetServer().GetPort(), m.GetServer().GetStartCode(), m.GetState())
	// Output: host 16020 5 OPEN
}
