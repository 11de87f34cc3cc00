// Package zk finds the hbase:meta region server and the active HBase master through
// ZooKeeper.
//
// A Client keeps one ZooKeeper session and reuses it for every lookup. The session is opened
// lazily on the first lookup; if it expires, the next lookup transparently opens a new one.
// Every lookup honours its context: cancellation returns at once, whatever the ZooKeeper
// library is doing.
package zk
