package fakehbase

import (
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// adminMethods is the AdminService of the region servers: flushes and compactions only.
var adminMethods = map[string]handler{
	"FlushRegion":   adminFlush,
	"CompactRegion": adminCompact,
}

func adminFlush(c *call) (proto.Message, error) {
	var req pb.FlushRegionRequest
	if err := c.unmarshal(&req); err != nil {
		return nil, err
	}
	if len(req.GetFamily()) > 0 {
		return nil, unsupported("flushing one family")
	}
	r, unlock, err := c.enter("FlushRegion", req.GetRegion(), nil)
	if err != nil {
		return nil, err
	}
	defer unlock()
	s := c.rs.s
	s.flushRegion(r)
	return &pb.FlushRegionResponse{LastFlushTime: proto.Uint64(uint64(s.now())), Flushed: proto.Bool(true)}, nil
}

// adminCompact compacts at once: HBase only queues the compaction, so a test cannot tell.
func adminCompact(c *call) (proto.Message, error) {
	var req pb.CompactRegionRequest
	if err := c.unmarshal(&req); err != nil {
		return nil, err
	}
	if len(req.GetFamily()) > 0 {
		return nil, unsupported("compacting one family")
	}
	r, unlock, err := c.enter("CompactRegion", req.GetRegion(), nil)
	if err != nil {
		return nil, err
	}
	defer unlock()
	s := c.rs.s
	s.compactRegion(r, req.GetMajor())
	return &pb.CompactRegionResponse{}, nil
}
