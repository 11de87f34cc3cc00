package zk

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-hbase/hbase/hberr"
)

var (
	// ErrNoNode is returned when the znode does not exist, for example because hbase:meta is
	// not assigned yet or no master is active. Callers retry, unless the error is also
	// ErrNoParent (the parent znode is missing: a configuration error).
	ErrNoNode = errors.New("zk: znode does not exist")

	// ErrClosed is returned by lookups on a closed Client, and by lookups cut short by Close.
	ErrClosed = errors.New("zk: client closed")

	// ErrUnreachable is returned (in an *UnreachableError, with the servers and the last
	// failure) when no server of the quorum could be connected to: refused, unresolvable,
	// closing the connection or silent (no answer to the connect request within a second).
	// A server answering as no ZooKeeper does gives a *NotZooKeeperError instead.
	ErrUnreachable = errors.New("zk: ZooKeeper unreachable")

	// ErrBadZNode is returned when a znode's data cannot be parsed as HBase server location.
	// Retrying does not help until HBase rewrites the znode.
	ErrBadZNode = errors.New("zk: malformed znode data")
)

// UnreachableError is a lookup that found no server of the quorum to talk to, and why the
// latest attempt failed. It matches ErrUnreachable and hberr.ErrConnection: the network or
// ZooKeeper may recover, so whether to retry is the caller's choice.
type UnreachableError struct {
	Servers []string // the quorum's servers, host:port
	Err     error    // why the latest connection failed
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("%v (%s): %v", ErrUnreachable, strings.Join(e.Servers, ","), e.Err)
}

func (e *UnreachableError) Unwrap() []error { return []error{ErrUnreachable, e.Err} }

// Is matches hberr.ErrConnection, what users test for a server they cannot reach.
func (e *UnreachableError) Is(target error) bool { return target == hberr.ErrConnection }
