// Package fakehbase is an in-memory HBase for unit tests: a server in the test process,
// listening on 127.0.0.1 and speaking HBase's RPC protocol, that the real *hbase.Client
// connects to. It starts in milliseconds and needs no JVM, in the shape of
// net/http/httptest:
//
//	func TestStore(t *testing.T) {
//		srv := fakehbase.NewServer(t) // closed when the test ends
//		if err := srv.CreateTable("users", []string{"info"}); err != nil {
//			t.Fatal(err)
//		}
//		client, err := srv.NewClient() // hbase.NewClient("", hbase.WithBootstrapServers(srv.Addr()))
//		if err != nil {
//			t.Fatal(err)
//		}
//		defer client.Close()
//		// ... the code under test uses client ...
//	}
//
// The client bootstraps through the server's connection registry (no ZooKeeper), finds
// regions in hbase:meta and talks to the region servers as it does to a cluster, so its
// routing, retries and error handling run as they do in production.
//
// # The test kit
//
// Faults make those paths testable: InjectError and InjectDelay fail or slow down the calls
// that match (by operation, table and row; the actions of a batch one by one), and
// MoveRegion moves a region, so that the client follows it. The exception of InjectError is
// one of the Exception constants (RegionTooBusy, NotServingRegion, DoNotRetry,
// TableNotFound...: HBase's classes, named as HBase names them), the operation of a Match
// one of the Op constants (OpGet, OpPut, OpScan, OpCreateTable...). A Match without a table
// leaves the client's own lookups of hbase:meta alone, so that a fault on every Get reaches
// the Get of the test; Match.Meta asks for them.
//
// Put and PutAt seed cells on the server side, as a client's Put would write them; Get,
// CheckGet and Rows read them as a client's Get and Scan would. CallLog is the ordered log of
// the calls the server received, with the fault that answered each; Calls counts those that
// match.
//
// A call of the kit that cannot mean what it says (an exception that is not a constant, such
// as a misspelt class or java.lang.NullPointerException; an unknown operation; a seed into a
// table or family that does not exist) is refused: the method returns an error and, on a
// server of NewServer, also fails the test, so that a fault that could never fire does not
// let a test pass for the wrong reason even when the error goes unchecked.
//
//	func TestReadUser(t *testing.T) {
//		srv := fakehbase.NewServer(t)
//		if err := srv.CreateTable("users", []string{"info"}); err != nil {
//			t.Fatal(err)
//		}
//		if err := srv.Put("users", "alice", "info", "email", "alice@example.com"); err != nil {
//			t.Fatal(err)
//		}
//		if err := srv.InjectError(fakehbase.Match{Op: fakehbase.OpGet, Table: "users"}, fakehbase.RegionTooBusy, "busy", 2); err != nil {
//			t.Fatal(err)
//		}
//		// ... the code under test reads alice through a client: two refusals, then the value ...
//		if n := srv.Calls(fakehbase.Match{Op: fakehbase.OpGet, Table: "users"}); n != 3 {
//			t.Fatalf("%d Gets; want 3", n)
//		}
//	}
//
// Command cmd/fakehbase runs the server as a process, for the command line and local
// development: it prints HBASE_BOOTSTRAP=127.0.0.1:PORT, the address a client bootstraps
// from (hbase.WithBootstrapServers; hbasectl reads the variable).
//
// # It must not drift from HBase
//
// The package's conformance suite (fakehbase/conformance) runs over a hundred black-box
// cases through the public client, against this server and against a real HBase 2.6.1 mini
// cluster, and requires equal outcomes: results, cells and their timestamps, errors as
// package hberr classifies them. The cases are the reference of what is supported.
//
// # What it serves
//
//   - The connection registry (ClientMetaService: cluster id, active master, hbase:meta's
//     location, bootstrap nodes); hbase:meta itself, in its own row order, with the rows a
//     master writes (info:regioninfo, info:server..., the table state).
//   - Tables split into regions (WithRegionServers spreads them over several servers), with
//     families keeping a number of versions (VERSIONS) and a TTL; the other family settings
//     (compression, encodings, bloom filters, block size...) are kept and described, with
//     no effect.
//   - Get (columns, families, time range, versions, existence only, per-family limit and
//     offset, filters), Put, Delete of every kind with HBase's delete-marker semantics (a
//     marker masks the older puts written after it too), Append and Increment (with their
//     results, timestamps and nonces), CheckAndMutate (value conditions with every compare
//     operator, filter conditions, time ranges; several mutations), MutateRow, batches
//     (Multi, with per-action results and exceptions, Puts applied after the Gets of their
//     region action as HBase does), scans (forward and reversed, start and stop rows with
//     their inclusive flags, limits, caching, batch size, the snapshot of their first RPC,
//     leases, scan metrics ROWS_SCANNED and ROWS_FILTERED).
//   - Filters: FilterList (AND, OR, nested), PrefixFilter, PageFilter (per region, as in
//     HBase), KeyOnlyFilter, FirstKeyOnlyFilter, FilterAllFilter, TimestampsFilter,
//     ColumnPrefixFilter, MultipleColumnPrefixFilter, ColumnRangeFilter,
//     ColumnPaginationFilter, ColumnCountGetFilter, RowFilter, FamilyFilter,
//     QualifierFilter, ValueFilter, SingleColumnValueFilter, SingleColumnValueExcludeFilter,
//     ColumnValueFilter, DependentColumnFilter, InclusiveStopFilter, MultiRowRangeFilter,
//     FuzzyRowFilter, RandomRowFilter, SkipFilter, WhileMatchFilter; comparators
//     BinaryComparator, BinaryPrefixComparator, LongComparator, NullComparator,
//     BitComparator, SubstringComparator, RegexStringComparator.
//   - The master's calls a service makes (MasterService): create a table (split keys,
//     families), delete, enable, disable, truncate, modify a table or a family, add and
//     delete families, table state, describe, list (regular expression, namespace, system
//     tables), namespaces (create, delete, modify, describe, list), and the procedure
//     results the client polls. The region servers' FlushRegion and CompactRegion
//     (AdminService) flush and compact as HBase does (see below).
//   - A region is flushed when it closes (disable, schema changes, MoveRegion) or on
//     FlushRegion: cells stay in a "memstore" until then, so a family keeping one version
//     shows its older version again when the newer is deleted, until a flush, as in HBase.
//
// # What it does not do
//
// A request the fake does not implement is answered with an UnsupportedOperationException
// that names it ("fakehbase: filter X is not supported"), never with a guess: the client's
// error matches hberr.ErrNotSupported (and hberr.ErrDoNotRetry). Not supported:
// cellblock compression, coprocessors and their endpoints (coprocessor.Call and CallRegions,
// aggregate, visibility, admin's CoprocessorService and RegionServerCoprocessorService), raw
// scans (attribute _raw_), read isolation levels, per-family time ranges, per-cell TTLs
// (hrpc.CellTTL), cell ACLs (hrpc.CellACL), visibility labels (hrpc.CellVisibility,
// hrpc.Authorizations), access control (admin's Grant, Revoke, UserPermissions,
// HasPermissions), KEEP_DELETED_CELLS, NEW_VERSION_BEHAVIOR, MIN_VERSIONS together with a TTL,
// region replicas, snapshots, splits, merges, the balancer, quotas (admin.SetThrottle,
// admin.Quotas... and their switches), region server groups (admin.AddRSGroup...), the slow,
// large and balancer logs (admin.SlowLogs, admin.BalancerDecisions...), replication peers
// (admin's AddReplicationPeer, RemoveReplicationPeer, EnableReplicationPeer,
// DisableReplicationPeer, DescribeReplicationPeer, UpdateReplicationPeerConfig, the Append and
// Remove table-CFs and namespace edits, ListReplicationPeers, ReplicationPeerEnabled, the peer
// modification switch, and EnableTableReplication, which lists the peers; a family's
// REPLICATION_SCOPE is kept, so ListReplicatedTableCFs and DisableTableReplication work),
// cluster status (so no call of package admin about one region server: ServerRegions,
// CompactRegionServer, FlushRegionServer, CompactionSwitch, DecommissionServers,
// RecommissionServer, UpdateConfiguration, RollWALWriter), the master's switches and chores
// (split, merge, catalog janitor, cleaner chore, snapshot cleanup, maintenance mode,
// Normalize), compaction states and last major compactions, procedures and locks
// (Procedures, Locks, AbortProcedure), decommissioned servers, OfflineRegion, TruncateRegion,
// ClearBlockCache, flushes and compactions of one family, the region servers' other
// AdminService calls, and the filters and comparators not listed
// above (FirstKeyValueMatchingQualifiersFilter, BinaryComponentComparator,
// BigDecimalComparator...). RegexStringComparator and table regular expressions use Go's
// RE2 syntax, which lacks some of Java's (back references, look-arounds): a pattern RE2
// cannot compile is refused.
//
// The server speaks SIMPLE authentication in the clear only: a client configured for
// Kerberos or TLS cannot connect (the server closes the connection).
//
// What differs without being refused: scans return whole rows, never partial ones (a
// client with hrpc.AllowPartialResults gets whole rows); no heartbeats and no server-side
// time limits; a write takes effect at once and reads see it at once (HBase does the same
// for a single region server); timestamps come from the server's clock (WithClock) at
// millisecond resolution, so two writes in one millisecond without timestamps share one, as
// on a real server.
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
package fakehbase
