package hrpc

import "github.com/go-hbase/hbase/internal/pb"

// FuzzyKey is one pattern of a FuzzyRowFilter: Mask[i] is 0 where the row byte must equal
// Key[i] and 1 where any byte matches. Key and Mask have the same length.
type FuzzyKey struct {
	Key, Mask []byte
}

// FuzzyRowFilter keeps rows matching any of Keys at their start, seeking past rows that
// cannot match.
type FuzzyRowFilter struct{ Keys []FuzzyKey }

// The Java client sends masks already processed (HBASE-15676, "v2"): a fixed byte becomes
// 0xff, a wildcard 2, and wildcard positions of the key are zeroed.
const (
	fuzzyFixed    = 0xff
	fuzzyWildcard = 2
)

// toProto implements Filter.
func (f FuzzyRowFilter) toProto() (*pb.Filter, error) {
	if len(f.Keys) == 0 {
		return nil, invalid("FuzzyRowFilter without keys")
	}
	p := &pb.FuzzyRowFilter{FuzzyKeysData: make([]*pb.BytesBytesPair, len(f.Keys)), IsMaskV2: new(bool)}
	*p.IsMaskV2 = true
	for i, k := range f.Keys {
		if len(k.Key) != len(k.Mask) || len(k.Key) == 0 {
			return nil, invalid("FuzzyRowFilter: key %d has %d bytes and mask %d bytes", i, len(k.Key), len(k.Mask))
		}
		key := make([]byte, len(k.Key))
		mask := make([]byte, len(k.Mask))
		for j, m := range k.Mask {
			switch m {
			case 0:
				mask[j] = fuzzyFixed
				key[j] = k.Key[j]
			case 1:
				mask[j] = fuzzyWildcard
			default:
				return nil, invalid("FuzzyRowFilter: mask %d byte %d is %d, want 0 (fixed) or 1 (any)", i, j, m)
			}
		}
		p.FuzzyKeysData[i] = &pb.BytesBytesPair{First: key, Second: mask}
	}
	return marshalFilter("FuzzyRowFilter", p)
}

// RowRange is one range of a MultiRowRangeFilter. A nil or empty Start begins at the first row,
// a nil or empty Stop ends at the last.
type RowRange struct {
	Start, Stop                   []byte
	StartInclusive, StopInclusive bool
}

// MultiRowRangeFilter keeps rows within any of Ranges, seeking between them.
type MultiRowRangeFilter struct{ Ranges []RowRange }

// toProto implements Filter.
func (f MultiRowRangeFilter) toProto() (*pb.Filter, error) {
	p := &pb.MultiRowRangeFilter{RowRangeList: make([]*pb.RowRange, len(f.Ranges))}
	for i := range f.Ranges {
		r := &f.Ranges[i]
		if len(r.Start) > 0 && len(r.Stop) > 0 && string(r.Start) > string(r.Stop) {
			return nil, invalid("MultiRowRangeFilter: range %d starts at %q after its stop %q", i, r.Start, r.Stop)
		}
		p.RowRangeList[i] = &pb.RowRange{
			StartRow: r.Start, StartRowInclusive: &r.StartInclusive,
			StopRow: r.Stop, StopRowInclusive: &r.StopInclusive,
		}
	}
	return marshalFilter("MultiRowRangeFilter", p)
}
