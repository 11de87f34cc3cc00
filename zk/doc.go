// Package zk finds the hbase:meta region server and the active HBase master through
// ZooKeeper.
//
// A Client keeps one ZooKeeper session and reuses it for every lookup. The session is opened
// lazily on the first lookup; if it expires, the next lookup transparently opens a new one.
// Every lookup honours its context: cancellation returns at once, whatever the ZooKeeper
// library is doing.
//
// # Stability
//
// Package zk is a lower layer of go-hbase: usable on its own (finding hbase:meta and the master in
// ZooKeeper), as pgx's pgconn and pgproto3 are below pgx, but not one of the stable packages
// (hbase, admin, bufwriter, parallelscan, kerberos, hrpc, hberr, hbasetrace, hbasetest,
// hbasetest/faultnet and fakehbase). Before v1.0.0 a minor version (v0.X.0) may change the API of
// the stable packages; CHANGELOG.md lists every change with what to use instead; a patch version
// (v0.X.Y) never changes it. The lower layers (region, zk, sasl, cipher) may change in any minor
// version. internal/... is not API. A program that uses the client through package hbase never
// needs to import it.
package zk
