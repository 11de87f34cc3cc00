// Package admin makes an HBase cluster's administrative calls through a client of package
// hbase: tables, column families, namespaces, regions (split, merge, move, assign, flush,
// compact), snapshots, the balancer and normalizer switches, the cluster status, and
// replication peers and a table's replication switch (docs/replication.md).
//
//	adm := admin.New(client) // closed by adm.Close, or with the client
//	desc, err := hrpc.NewTableDescriptor("users", hrpc.WithFamily("f", hrpc.Versions(3)))
//	if err != nil {
//		return err // a bad name or setting: nothing was sent
//	}
//	if err := adm.CreateTable(ctx, desc, hrpc.SplitKeys([]byte("m"))); err != nil {
//		return err // an *hberr.AdminError: errors.Is(err, hberr.ErrTableExists)...
//	}
//
// An Admin shares its client's registry (ZooKeeper or bootstrap servers), security, retry
// settings, hooks and lifetime, and keeps its own connections to the active master and to the
// region servers it flushed or compacted on. Calls that start a master procedure wait for it,
// across master restarts; every error is an *hberr.AdminError naming the call, with the
// sentinels of package hberr under it (hberr.ErrTableExists, hberr.ErrTableNotFound...).
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
package admin
