package admin

import (
	"time"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// SnapshotOption configures a snapshot Admin.Snapshot takes.
type SnapshotOption func(*pb.SnapshotDescription) error

// SnapshotTTL keeps the snapshot for d (whole seconds) after its creation; the master deletes
// it after that while snapshot cleanup is on (SetSnapshotCleanup). 0 keeps it until deleted.
func SnapshotTTL(d time.Duration) SnapshotOption {
	return func(s *pb.SnapshotDescription) error {
		if d < 0 || d%time.Second != 0 {
			return wire.BadRequest("snapshot TTL %v is not a whole number of seconds, 0 or more", d)
		}
		s.Ttl = new(int64(d / time.Second))
		return nil
	}
}

// SkipFlush takes the snapshot of the table's store files without flushing its memstores
// first (SKIPFLUSH): faster, without the writes not yet flushed.
func SkipFlush() SnapshotOption {
	return func(s *pb.SnapshotDescription) error {
		s.Type = pb.SnapshotDescription_SKIPFLUSH.Enum()
		return nil
	}
}

// SnapshotOwner records user as the snapshot's owner (on a secure cluster the master records
// the caller instead).
func SnapshotOwner(user string) SnapshotOption {
	return func(s *pb.SnapshotDescription) error {
		if user == "" {
			return wire.BadRequest("empty snapshot owner")
		}
		s.Owner = &user
		return nil
	}
}
