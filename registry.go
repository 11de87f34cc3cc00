package hbase

import (
	"context"
)

// registry is where a client finds hbase:meta before it can route a call: ZooKeeper (the
// default) or the servers' ClientMetaService (WithBootstrapServers). The rest of the client
// does not know which.
type registry interface {
	LocateMeta(ctx context.Context) (string, error)
	Close() error
}

// funcRegistry is a registry made of a lookup function (tests).
type funcRegistry func(ctx context.Context) (string, error)

func (f funcRegistry) LocateMeta(ctx context.Context) (string, error) { return f(ctx) }
func (funcRegistry) Close() error                                     { return nil }
