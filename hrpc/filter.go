package hrpc

import (
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// Filter is a server-side filter for a Get or Scan (see WithFilter) or the condition of a
// CheckAndMutate (IfFilter). Only the filter types of this package implement it; each is the
// HBase filter of the same name, and its arguments are checked when the request is built.
type Filter interface {
	// toProto returns the pb.Filter HBase's ProtobufUtil.toFilter reads: the Java class name
	// and the serialized filter message. It reports invalid filter arguments.
	toProto() (*pb.Filter, error)
}

const filterPackage = "org.apache.hadoop.hbase.filter."

func marshalFilter(class string, m proto.Message) (*pb.Filter, error) {
	b, err := proto.Marshal(m)
	if err != nil {
		return nil, invalid("%s: %v", class, err)
	}
	name := filterPackage + class
	return &pb.Filter{Name: &name, SerializedFilter: b}, nil
}

// PrefixFilter keeps rows whose key starts with Prefix.
type PrefixFilter struct{ Prefix []byte }

// toProto implements Filter.
func (f PrefixFilter) toProto() (*pb.Filter, error) {
	return marshalFilter("PrefixFilter", &pb.PrefixFilter{Prefix: f.Prefix})
}

// InclusiveStopFilter ends a scan after the row StopRow (inclusive).
type InclusiveStopFilter struct{ StopRow []byte }

// toProto implements Filter.
func (f InclusiveStopFilter) toProto() (*pb.Filter, error) {
	return marshalFilter("InclusiveStopFilter", &pb.InclusiveStopFilter{StopRowKey: f.StopRow})
}

// PageFilter stops after PageSize rows on each region server: the client may still get more
// rows from several regions and must count them itself.
type PageFilter struct{ PageSize int64 }

// toProto implements Filter.
func (f PageFilter) toProto() (*pb.Filter, error) {
	if f.PageSize < 0 {
		return nil, invalid("PageFilter: negative page size %d", f.PageSize)
	}
	return marshalFilter("PageFilter", &pb.PageFilter{PageSize: &f.PageSize})
}

// RandomRowFilter keeps each row with probability Chance (0 to 1).
type RandomRowFilter struct{ Chance float32 }

// toProto implements Filter.
func (f RandomRowFilter) toProto() (*pb.Filter, error) {
	if !(f.Chance >= 0 && f.Chance <= 1) {
		return nil, invalid("RandomRowFilter: chance %v not in [0, 1]", f.Chance)
	}
	return marshalFilter("RandomRowFilter", &pb.RandomRowFilter{Chance: &f.Chance})
}

// KeyOnlyFilter strips values, keeping keys. With LenAsValue each value is replaced by its
// length as a 4-byte big-endian integer.
type KeyOnlyFilter struct{ LenAsValue bool }

// toProto implements Filter.
func (f KeyOnlyFilter) toProto() (*pb.Filter, error) {
	return marshalFilter("KeyOnlyFilter", &pb.KeyOnlyFilter{LenAsVal: &f.LenAsValue})
}

// FirstKeyOnlyFilter returns only the first cell of each row (for counting rows).
type FirstKeyOnlyFilter struct{}

// toProto implements Filter.
func (FirstKeyOnlyFilter) toProto() (*pb.Filter, error) {
	return marshalFilter("FirstKeyOnlyFilter", &pb.FirstKeyOnlyFilter{})
}

// FilterAllFilter drops every row.
type FilterAllFilter struct{}

// toProto implements Filter.
func (FilterAllFilter) toProto() (*pb.Filter, error) {
	return marshalFilter("FilterAllFilter", &pb.FilterAllFilter{})
}

// TimestampsFilter keeps cells with one of the given timestamps. CanHint lets the server seek
// to the next wanted timestamp.
type TimestampsFilter struct {
	Timestamps []int64
	CanHint    bool
}

// toProto implements Filter.
func (f TimestampsFilter) toProto() (*pb.Filter, error) {
	for _, ts := range f.Timestamps {
		if ts < 0 {
			return nil, invalid("TimestampsFilter: negative timestamp %d", ts)
		}
	}
	return marshalFilter("TimestampsFilter", &pb.TimestampsFilter{Timestamps: f.Timestamps, CanHint: &f.CanHint})
}
