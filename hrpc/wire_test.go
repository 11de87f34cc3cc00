package hrpc

import (
	"bytes"
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// The wire side of requests, as the client reaches it through internal/hrpcwire (which these
// tests cannot import: it imports hrpc).
func getW(g *Get) *getCall                       { return (*getCall)(g) }
func mutW(m Mutation) *mutationCall              { return (*mutationCall)(m.base()) }
func camW(c *CheckAndMutate) *checkAndMutateCall { return (*checkAndMutateCall)(c) }
func rmW(r *RowMutations) *rowMutationsCall      { return (*rowMutationsCall)(r) }
func scanW(s *Scan) *scanCall                    { return (*scanCall)(s) }

// What hrpc registers is what internal/hrpcwire asserts it to (TestRegistered there); here,
// that it is registered at all, and that it is this package's value.
func TestRegisteredInWire(t *testing.T) {
	if _, ok := wire.Hrpc().(wireAPI); !ok {
		t.Fatalf("wire.Hrpc() = %T; want hrpc's wireAPI", wire.Hrpc())
	}
}

// Constants declared with literal values keep the values of the protobuf enums they stand for.
func TestConstantsMatchProtobuf(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int32
	}{
		{"Less", int32(Less), int32(pb.CompareType_LESS)},
		{"LessOrEqual", int32(LessOrEqual), int32(pb.CompareType_LESS_OR_EQUAL)},
		{"Equal", int32(Equal), int32(pb.CompareType_EQUAL)},
		{"NotEqual", int32(NotEqual), int32(pb.CompareType_NOT_EQUAL)},
		{"GreaterOrEqual", int32(GreaterOrEqual), int32(pb.CompareType_GREATER_OR_EQUAL)},
		{"Greater", int32(Greater), int32(pb.CompareType_GREATER)},
		{"NoOp", int32(NoOp), int32(pb.CompareType_NO_OP)},
		{"BitAnd", int32(BitAnd), int32(pb.BitComparator_AND)},
		{"BitOr", int32(BitOr), int32(pb.BitComparator_OR)},
		{"BitXor", int32(BitXor), int32(pb.BitComparator_XOR)},
		{"MustPassAll", int32(MustPassAll), int32(pb.FilterList_MUST_PASS_ALL)},
		{"MustPassOne", int32(MustPassOne), int32(pb.FilterList_MUST_PASS_ONE)},
		{"UseDefault", int32(UseDefault), int32(pb.MutationProto_USE_DEFAULT)},
		{"SkipWAL", int32(SkipWAL), int32(pb.MutationProto_SKIP_WAL)},
		{"AsyncWAL", int32(AsyncWAL), int32(pb.MutationProto_ASYNC_WAL)},
		{"SyncWAL", int32(SyncWAL), int32(pb.MutationProto_SYNC_WAL)},
		{"FsyncWAL", int32(FsyncWAL), int32(pb.MutationProto_FSYNC_WAL)},
		{"CellTypePut", int32(CellTypePut), wire.CellTypePut},
		{"CellTypeDelete", int32(CellTypeDelete), wire.CellTypeDelete},
		{"CellTypeDeleteFamilyVersion", int32(CellTypeDeleteFamilyVersion), wire.CellTypeDeleteFamilyVersion},
		{"CellTypeDeleteColumn", int32(CellTypeDeleteColumn), wire.CellTypeDeleteColumn},
		{"CellTypeDeleteFamily", int32(CellTypeDeleteFamily), wire.CellTypeDeleteFamily},
		{"CellTypePut (pb)", int32(CellTypePut), int32(pb.CellType_PUT)},
		{"CellTypeDeleteFamily (pb)", int32(CellTypeDeleteFamily), int32(pb.CellType_DELETE_FAMILY)},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d; want %d", c.name, c.got, c.want)
		}
	}
}

// appendCell encodes c as the client does (wire.AppendCell).
func appendCell(dst []byte, c *Cell) []byte {
	return wire.AppendCell(dst, &wire.Cell{Row: c.Row, Family: c.Family, Qualifier: c.Qualifier,
		Timestamp: c.Timestamp, Type: uint8(c.Type), Value: c.Value})
}

func cellEqual(a, b Cell) bool {
	return bytes.Equal(a.Row, b.Row) && bytes.Equal(a.Family, b.Family) && bytes.Equal(a.Qualifier, b.Qualifier) &&
		a.Timestamp == b.Timestamp && a.Type == b.Type && bytes.Equal(a.Value, b.Value)
}
