// Package visibility is the visibility labels admin of HBase's VisibilityController, through
// a client of package hbase: define labels, give users (or @groups) the authorizations to read
// cells labelled with them, take them back, list them. It calls the VisibilityLabelsService
// endpoint on the hbase:labels table with package coprocessor, as Java's VisibilityClient does.
//
//	if err := visibility.AddLabels(ctx, client, "secret", "public"); err != nil {
//		return err
//	}
//	if err := visibility.SetAuths(ctx, client, "alice", "secret"); err != nil {
//		return err
//	}
//	auths, err := visibility.Auths(ctx, client, "alice") // [secret]
//	if err != nil {
//		return err
//	}
//	fmt.Println(auths)
//
// The cluster needs the VisibilityController as a master and region coprocessor
// (hbase.coprocessor.master.classes and hbase.coprocessor.region.classes) and
// hbase.security.authorization on; without it there is no hbase:labels and every call fails
// with an error matching hberr.ErrNotSupported. Defining labels and setting authorizations
// takes a superuser (hbase.superuser, or the user the servers run as), or, with the
// AccessController, the global admin permission; the user is the client's: its Kerberos
// principal, or on a cluster without Kerberos the user it names (hbase.WithUser, by default
// "go-hbase").
//
// A refused label is an *hberr.LabelError naming it, matching hberr.ErrInvalidLabel (a label
// of characters HBase does not allow: refused before anything is sent), hberr.ErrLabelExists
// or hberr.ErrLabelNotFound. SetAuths and ClearAuths check every label first and change
// nothing when one is refused, where Java's VisibilityClient applies the others.
//
// fakehbase has no visibility labels: every call fails there with hberr.ErrNotSupported.
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan,
// kerberos, coprocessor, aggregate, visibility, hrpc, hberr, hbasetrace, hbasetest,
// hbasetest/faultnet and fakehbase. Before v1.0.0 a minor version (v0.X.0) may change the API
// of the stable packages; CHANGELOG.md lists every change with what to use instead; a patch
// version (v0.X.Y) never changes it. The lower layers (region, zk, sasl, cipher) may change in
// any minor version. internal/... is not API.
package visibility
