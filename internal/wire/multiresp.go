package wire

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// DecodeMultiResponse decodes b into resp, an empty message, as proto.Unmarshal does. A
// response of a batch of n actions holds n ResultOrExceptions, each with its index and (for a
// mutation) an empty Result: three allocations per action by protobuf's reflection. Here the
// ResultOrExceptions of a region action, their indexes and Results come in one block. The
// fast path knows the fields a region server sends (not the deprecated ones); on any other
// field, or a field seen twice where proto would merge, it starts over with proto.Unmarshal,
// so that the outcome (message or error) is always proto.Unmarshal's.
func DecodeMultiResponse(b []byte, resp *pb.MultiResponse) error {
	return (*MultiDecoder)(nil).Decode(b, resp)
}

// MultiDecoder is DecodeMultiResponse with blocks kept from one response to the next: a
// buffered writer's flushes each get thousands of results, whose blocks were allocated and
// zeroed anew for each. The zero value is ready; a nil *MultiDecoder allocates the blocks of
// each response.
type MultiDecoder struct {
	slab     []roeSlab
	used     int // slab[:used] holds the last responses' results
	ptrs     []*pb.ResultOrException
	usedPtrs int
}

// Decode decodes b into resp, an empty message, as DecodeMultiResponse does, in d's blocks:
// resp is valid until d.Release.
func (d *MultiDecoder) Decode(b []byte, resp *pb.MultiResponse) error {
	if decodeMultiFast(d, b, resp) {
		return nil
	}
	resp.Reset()
	return proto.Unmarshal(b, resp)
}

// Release makes d's blocks free for the next response: what the responses decoded so far point
// to in them is cleared, so those must not be used any more.
func (d *MultiDecoder) Release() {
	clear(d.slab[:d.used])
	clear(d.ptrs[:d.usedPtrs])
	d.used, d.usedPtrs = 0, 0
}

// take returns room for count results of a region action.
func (d *MultiDecoder) take(count int) ([]roeSlab, []*pb.ResultOrException) {
	if d == nil {
		return make([]roeSlab, count), make([]*pb.ResultOrException, 0, count)
	}
	if len(d.slab)-d.used < count {
		// The results decoded before keep the old block; the new one is kept from now on.
		d.slab, d.used = make([]roeSlab, max(count, 2*len(d.slab))), 0
	}
	if len(d.ptrs)-d.usedPtrs < count {
		d.ptrs, d.usedPtrs = make([]*pb.ResultOrException, max(count, 2*len(d.ptrs))), 0
	}
	slab := d.slab[d.used : d.used+count]
	ptrs := d.ptrs[d.usedPtrs : d.usedPtrs : d.usedPtrs+count]
	d.used += count
	d.usedPtrs += count
	return slab, ptrs
}

// nextField reads the field at the start of b: its number, its type and, for a varint or a
// length-delimited field, its value; n is the length of the field in b, or negative when b is
// malformed there. A field of another type is skipped over, its value not returned. The one
// field reader of the decoders below: a one-byte tag with a one-byte varint or length, the
// common field, is read without protowire's calls.
func nextField(b []byte) (num protowire.Number, typ protowire.Type, varint uint64, bytes []byte, n int) {
	if len(b) >= 2 && b[0] >= 1<<3 && b[0] < 0x80 && b[1] < 0x80 {
		num, typ = protowire.Number(b[0]>>3), protowire.Type(b[0]&7)
		switch l := int(b[1]); {
		case typ == protowire.VarintType:
			return num, typ, uint64(l), nil, 2
		case typ == protowire.BytesType && l <= len(b)-2:
			return num, typ, 0, b[2 : 2+l], 2 + l
		}
	}
	num, typ, n = protowire.ConsumeTag(b)
	if n < 0 {
		return 0, 0, 0, nil, n
	}
	var m int
	switch typ {
	case protowire.VarintType:
		varint, m = protowire.ConsumeVarint(b[n:])
	case protowire.BytesType:
		bytes, m = protowire.ConsumeBytes(b[n:])
	default:
		m = protowire.ConsumeFieldValue(num, typ, b[n:])
	}
	if m < 0 {
		return 0, 0, 0, nil, m
	}
	return num, typ, varint, bytes, n + m
}

func decodeMultiFast(d *MultiDecoder, b []byte, resp *pb.MultiResponse) bool {
	for len(b) > 0 {
		num, typ, _, v, n := nextField(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			rar := new(pb.RegionActionResult)
			if !decodeRegionActionResult(d, v, rar) {
				return false
			}
			resp.RegionActionResult = append(resp.RegionActionResult, rar)
		case num == 3 && typ == protowire.BytesType && resp.RegionStatistics == nil:
			resp.RegionStatistics = new(pb.MultiRegionLoadStats)
			if proto.Unmarshal(v, resp.RegionStatistics) != nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// roeSlab holds what one ResultOrException points to.
type roeSlab struct {
	roe                    pb.ResultOrException
	index                  uint32
	result                 pb.Result
	count                  int32
	exists, stale, partial bool
}

func decodeRegionActionResult(d *MultiDecoder, b []byte, rar *pb.RegionActionResult) bool {
	count := 0
	for rest := b; len(rest) > 0; {
		num, typ, _, _, n := nextField(rest)
		if n < 0 {
			return false
		}
		if num == 1 && typ == protowire.BytesType {
			count++
		}
		rest = rest[n:]
	}
	var slab []roeSlab
	if count > 0 {
		slab, rar.ResultOrException = d.take(count)
	}
	for len(b) > 0 {
		num, typ, u, v, n := nextField(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			s := &slab[len(rar.ResultOrException)]
			if !decodeResultOrException(v, s) {
				return false
			}
			rar.ResultOrException = append(rar.ResultOrException, &s.roe)
		case num == 2 && typ == protowire.BytesType && rar.Exception == nil:
			rar.Exception = new(pb.NameBytesPair)
			if proto.Unmarshal(v, rar.Exception) != nil {
				return false
			}
		case num == 3 && typ == protowire.VarintType:
			rar.Processed = proto.Bool(protowire.DecodeBool(u))
		default:
			return false
		}
	}
	return true
}

func decodeResultOrException(b []byte, s *roeSlab) bool {
	for len(b) > 0 {
		num, typ, u, v, n := nextField(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			s.index = uint32(u)
			s.roe.Index = &s.index
		case num == 2 && typ == protowire.BytesType && s.roe.Result == nil:
			if !decodeResult(v, s) {
				return false
			}
			s.roe.Result = &s.result
		case num == 3 && typ == protowire.BytesType && s.roe.Exception == nil:
			s.roe.Exception = new(pb.NameBytesPair)
			if proto.Unmarshal(v, s.roe.Exception) != nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// decodeResult decodes a Result of no cells in the message (a mutation's: empty, or
// associated_cell_count 0) into s; one with cells, or any other field, goes to proto.Unmarshal.
func decodeResult(b []byte, s *roeSlab) bool {
	for rest := b; len(rest) > 0; {
		num, typ, u, _, n := nextField(rest)
		if n < 0 {
			return false
		}
		rest = rest[n:]
		if typ != protowire.VarintType || num < 2 || num > 5 {
			return proto.Unmarshal(b, &s.result) == nil
		}
		switch num {
		case 2:
			s.count = int32(u)
			s.result.AssociatedCellCount = &s.count
		case 3:
			s.exists = protowire.DecodeBool(u)
			s.result.Exists = &s.exists
		case 4:
			s.stale = protowire.DecodeBool(u)
			s.result.Stale = &s.stale
		case 5:
			s.partial = protowire.DecodeBool(u)
			s.result.Partial = &s.partial
		}
	}
	return true
}
