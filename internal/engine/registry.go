package engine

import (
	"context"
	"errors"
)

// registry is where a client finds hbase:meta before it can route a call: ZooKeeper (the
// default) or the servers' ClientMetaService (WithBootstrapServers). The rest of the client
// does not know which.
type registry interface {
	LocateMeta(ctx context.Context) (string, error)
	// LocateMaster returns host:port of the active master (the admin calls' server).
	LocateMaster(ctx context.Context) (string, error)
	Close() error
}

// ErrNoMasterLookup: a test's registry knows only hbase:meta.
var ErrNoMasterLookup = errors.New("hbase: this client's registry cannot locate the master")

// funcRegistry is a registry made of a lookup function (tests).
type funcRegistry func(ctx context.Context) (string, error)

func (f funcRegistry) LocateMeta(ctx context.Context) (string, error) { return f(ctx) }
func (funcRegistry) LocateMaster(context.Context) (string, error)     { return "", ErrNoMasterLookup }
func (funcRegistry) Close() error                                     { return nil }
