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

// regionCall decodes a region server's admin request about one region (whole, not one of its
// families), applies the faults of op and serves it under the lock.
func regionCall[R any, PR interface {
	*R
	proto.Message
	GetRegion() *pb.RegionSpecifier
	GetFamily() []byte
}](c *call, op Op, what string, serve func(s *Server, r *region, req PR) proto.Message) (proto.Message, error) {
	req := PR(new(R))
	if err := c.unmarshal(req); err != nil {
		return nil, err
	}
	if len(req.GetFamily()) > 0 {
		return nil, unsupported("%s one family", what)
	}
	r, unlock, err := c.enter(op, req.GetRegion(), nil)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return serve(c.rs.s, r, req), nil
}

func adminFlush(c *call) (proto.Message, error) {
	return regionCall(c, OpFlushRegion, "flushing", func(s *Server, r *region, _ *pb.FlushRegionRequest) proto.Message {
		s.flushRegion(r)
		return &pb.FlushRegionResponse{LastFlushTime: proto.Uint64(uint64(s.now())), Flushed: proto.Bool(true)}
	})
}

// adminCompact compacts at once: HBase only queues the compaction, so a test cannot tell.
func adminCompact(c *call) (proto.Message, error) {
	return regionCall(c, OpCompactRegion, "compacting", func(s *Server, r *region, req *pb.CompactRegionRequest) proto.Message {
		s.compactRegion(r, req.GetMajor())
		return &pb.CompactRegionResponse{}
	})
}
