package hbasetrace

import "time"

// Stats is a snapshot of a Client's state and counters, in the spirit of database/sql's
// DBStats. Counters run from the client's creation.
type Stats struct {
	OpenConnections int           // connections to region servers that are up
	Servers         []ServerStats // one per open connection, sorted by address
	InFlight        int           // RPCs waiting for their response, over all servers
	CachedRegions   int           // regions in the region cache

	CacheMisses  uint64 // calls (and scanner opens) that did not find their region cached
	Lookups      uint64 // region lookups in hbase:meta (several callers may share one)
	LookupErrors uint64 // lookups that failed
	Retries      uint64 // attempts that failed and were tried again
	Dials        uint64 // connection setups, successful or not
	DialErrors   uint64 // connection setups that failed

	// OverloadErrors counts the RPCs that overloaded servers refused (hberr.IsOverloaded:
	// CallQueueTooBig, CallDropped); OverloadPauses the pauses taken before retrying them
	// (WithOverloadPause) and OverloadPauseTime their total.
	OverloadErrors    uint64
	OverloadPauses    uint64
	OverloadPauseTime time.Duration
	// BackpressureDelays counts the writes (single mutations and MultiRequests holding
	// mutations) delayed because their servers' load statistics asked for it
	// (WithBackpressure), and BackpressureTime their total delay.
	BackpressureDelays uint64
	BackpressureTime   time.Duration
	// HedgesSent counts the requests sent to secondary replicas by Timeline reads whose
	// primary was slow (past the hedge delay), down or failing; HedgesWon the reads a
	// secondary answered first (a Get, or a scan's first request in a region); StaleResults
	// the results of Timeline Gets marked Stale, single or in batches.
	HedgesSent, HedgesWon, StaleResults uint64
	// StaleScanRows counts the rows that Timeline scans returned marked Stale (read from a
	// secondary replica); a row returned in several results (hrpc.BatchSize,
	// hrpc.AllowPartialResults) counts once.
	StaleScanRows uint64

	// BytesWritten and BytesRead count the bytes of region server connections (frames,
	// after encryption), including those of connections closed since.
	BytesWritten, BytesRead uint64
}

// ServerStats is one open region server connection.
type ServerStats struct {
	Addr         string
	InFlight     int    // RPCs waiting for their response now
	Calls        uint64 // RPCs sent on this connection
	Writes       uint64 // writes to its socket: concurrent calls share one (Calls/Writes)
	BytesWritten uint64
	BytesRead    uint64
}

// ServerLatency is the latency of one kind of RPC to one region server since the client was
// created (or since the last ResetServerLatency).
type ServerLatency struct {
	Server string // host:port
	// Op is "Get", "Put", "Delete", "Append", "Increment", "CheckAndMutate", "MutateRow",
	// "Scan" (each ScanRequest) or "Batch" (each MultiRequest of a SendBatch): the Op of
	// the hooks' events.
	Op                       string
	Count                    int64
	Mean                     time.Duration
	P50, P90, P99, P999, Max time.Duration
}
