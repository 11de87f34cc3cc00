package hberr

import (
	"errors"
	"strings"
)

// Sentinels of the replication peer calls (package admin). Each also wraps ErrDoNotRetry: the
// master refused the request for good.
var (
	// ErrPeerNotFound: no replication peer of that id (ReplicationPeerNotFoundException), or
	// none at all where one was needed (EnableTableReplication).
	ErrPeerNotFound = errors.New("replication peer not found")
	// ErrPeerExists: a replication peer of that id exists already (HBase sends a
	// DoNotRetryIOException saying "Replication peer ... already exists").
	ErrPeerExists = errors.New("replication peer already exists")
	// ErrInvalidPeerConfig: a replication peer configuration the master refused (a cluster
	// key it cannot parse or that names the cluster itself, an endpoint class it cannot load,
	// namespaces or tables with replicate-all, a changed cluster key...) or the client found
	// wrong before sending (no cluster key nor endpoint; a table-CFs edit that does not fit the
	// peer's configuration).
	ErrInvalidPeerConfig = errors.New("invalid replication peer config")
	// ErrPeerStateUnchanged: enabling a peer that is enabled, or disabling one that is
	// disabled ("Replication peer ... has already been enabled").
	ErrPeerStateUnchanged = errors.New("replication peer already in that state")
	// ErrPeerModificationDisabled: the cluster's replication peer modification switch is off
	// (Admin.SetReplicationPeerModification), so the master refuses to change peers.
	ErrPeerModificationDisabled = errors.New("replication peer modification disabled")
	// ErrPeerTableMismatch: EnableTableReplication found the table on a peer cluster with
	// another descriptor than the source's (replication scopes aside).
	ErrPeerTableMismatch = errors.New("table differs on the replication peer cluster")
)

// classifyReplication gives a meaning to the exceptions of the master's replication peer checks
// (ReplicationPeerManager's DoNotRetryIOExceptions; a plain IOException when the peer
// modification switch is off), which say it in their message only.
func (e *RemoteError) classifyReplication() {
	m := e.Message
	switch {
	case strings.Contains(m, "Replication peer") && strings.Contains(m, "already exists"):
		e.kinds = []error{ErrPeerExists, ErrDoNotRetry}
	case strings.Contains(m, "Replication peer") && strings.Contains(m, "has already been"):
		e.kinds = []error{ErrPeerStateUnchanged, ErrDoNotRetry}
	case strings.Contains(m, "Found invalid peer name"):
		e.kinds = []error{ErrInvalidName, ErrDoNotRetry}
	case strings.Contains(m, "peer modification") && strings.Contains(m, "disabled"):
		e.kinds = []error{ErrPeerModificationDisabled, ErrDoNotRetry}
	case strings.Contains(m, "Invalid cluster key"),
		strings.Contains(m, "replication endpoint"),
		strings.Contains(m, "Need clean"),
		strings.Contains(m, "is conflict with namespaces"),
		strings.Contains(m, "Changing the cluster key"),
		strings.Contains(m, "Configured WALEntryFilter"):
		e.kinds = []error{ErrInvalidPeerConfig, ErrDoNotRetry}
	}
}
