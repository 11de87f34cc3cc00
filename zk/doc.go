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
// Package zk is a lower layer of go-hbase: usable on its own (finding hbase:meta and the master
// in ZooKeeper), as pgx's pgconn and pgproto3 are below pgx, but not part of the stable API of
// v0.1.0 (hbase, hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet, fakehbase). It may
// change in any minor version; a program that uses the client through package hbase never needs
// to import it.
package zk
