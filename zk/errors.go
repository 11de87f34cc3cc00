package zk

import "errors"

var (
	// ErrNoNode is returned when the znode does not exist, for example because hbase:meta is
	// not assigned yet or no master is active. Callers retry, unless the error is also
	// ErrNoParent (the parent znode is missing: a configuration error).
	ErrNoNode = errors.New("zk: znode does not exist")

	// ErrClosed is returned by lookups on a closed Client, and by lookups cut short by Close.
	ErrClosed = errors.New("zk: client closed")

	// ErrUnreachable is returned (wrapped, with the servers and the last failure) when no
	// server of the quorum could be connected to: refused, unresolvable, or not answering as
	// ZooKeeper does.
	ErrUnreachable = errors.New("zk: ZooKeeper unreachable")

	// ErrBadZNode is returned when a znode's data cannot be parsed as HBase server location.
	// Retrying does not help until HBase rewrites the znode.
	ErrBadZNode = errors.New("zk: malformed znode data")
)
