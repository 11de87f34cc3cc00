// Package admin makes an HBase cluster's administrative calls through a client of package
// hbase: tables, column families, namespaces, regions (split, merge, move, assign, flush,
// compact), snapshots, the balancer and normalizer switches and the cluster status.
//
//	adm := admin.New(client)
//	desc, err := hrpc.NewTableDescriptor("users", hrpc.WithFamily("f", hrpc.Versions(3)))
//	...
//	err = adm.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("m")))
//
// An Admin shares its client's registry (ZooKeeper or bootstrap servers), security, retry
// settings, hooks and lifetime, and keeps its own connections to the active master and to the
// region servers it flushed or compacted on. Calls that start a master procedure wait for it,
// across master restarts; every error is an *hberr.AdminError naming the call, with the
// sentinels of package hberr under it (hberr.ErrTableExists, hberr.ErrTableNotFound...).
//
// # Stability
//
// This package is part of go-hbase's API from v0.1.0. Before v1.0.0 a minor version may
// change it; CHANGELOG.md lists every change with what to use instead, and a patch version
// never changes it.
package admin
