package wire

import (
	"github.com/go-hbase/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// SetAttribute sets name to value in attrs, a list of request or connection attributes: a
// name already there gets the new value in place (a later option wins, and the order stays
// the first one's), a new name is appended. A nil value is a name without a value.
func SetAttribute(attrs []*pb.NameBytesPair, name string, value []byte) []*pb.NameBytesPair {
	for _, a := range attrs {
		if a.GetName() == name {
			a.Value = value
			return attrs
		}
	}
	return append(attrs, &pb.NameBytesPair{Name: proto.String(name), Value: value})
}
