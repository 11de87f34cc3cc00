package hrpc

import (
	"strconv"

	"github.com/go-hbase/hbase/internal/pb"
)

// ConsistencyLevel is how fresh a read must be: the Consistency field of HBase's Get and Scan.
type ConsistencyLevel uint8

const (
	// Strong reads go to the region's primary replica only and see every write acknowledged
	// before them. The default.
	Strong ConsistencyLevel = iota
	// Timeline reads may be answered by a secondary replica of the region (a table with
	// REGION_REPLICATION above 1) when the primary does not answer within the client's hedge
	// delay; such a result has Stale set and may miss the latest writes, but never holds data
	// that was not written. Result.ReplicaID says which replica answered and Result.Hedged
	// whether the secondaries were asked. A scan stays on the replica that answered its first
	// page in each region.
	Timeline
)

func (c ConsistencyLevel) String() string {
	switch c {
	case Strong:
		return "STRONG"
	case Timeline:
		return "TIMELINE"
	}
	return "ConsistencyLevel(" + strconv.Itoa(int(c)) + ")"
}

// Consistency sets the consistency of a Get or Scan (Strong by default). Under Timeline the
// client sends the read to the primary replica and, if it has not answered within the hedge
// delay (hbase.WithHedgeDelay), to the secondaries as well: the first answer wins.
func Consistency(c ConsistencyLevel) ReadOption {
	return ReadOption(func(o *options) error {
		if c != Strong && c != Timeline {
			return invalid("unknown consistency %d", c)
		}
		o.read().consistency = c
		return nil
	})
}

// Consistency is the Get's consistency level.
func (g *Get) Consistency() ConsistencyLevel { return g.consistency }

// Consistency is the Scan's consistency level.
func (s *Scan) Consistency() ConsistencyLevel { return s.consistency }

// protoConsistency is the wire value of a non-default consistency.
func protoConsistency(c ConsistencyLevel) pb.Consistency {
	if c == Timeline {
		return pb.Consistency_TIMELINE
	}
	return pb.Consistency_STRONG
}
