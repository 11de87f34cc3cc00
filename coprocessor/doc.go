// Package coprocessor calls the methods of coprocessor endpoints through a client of package
// hbase: protobuf services a region server runs inside each region of a table (HBase's
// AggregateImplementation, the VisibilityController's labels service, your own), called with
// your own generated request and response messages.
//
// Call calls a method on the region holding a row; CallRegions on every region of a row range,
// one Result per region, a region's failure beside the others' responses:
//
//	m := coprocessor.MethodOf(examplepb.File_rowcount_proto.Services().
//		ByName("RowCountService").Methods().ByName("getRowCount"))
//	results, err := coprocessor.CallRegions[*examplepb.CountResponse](ctx, client, "t", nil, nil, m, &examplepb.CountRequest{})
//	for _, r := range results {
//		if r.Err != nil {
//			continue // also in err, an *hberr.RegionsError
//		}
//		total += r.Response.GetCount()
//	}
//
// Each region's call is routed and retried as a Get is (a region that moves is found again; one
// that split before its call reached it is answered by its daughters). An endpoint that is not
// loaded fails at once with an error matching hberr.ErrNotSupported, whose message names the
// service (the server's UnknownProtocolException). Endpoints of the master and of one region
// server are admin.Admin's CoprocessorService and RegionServerCoprocessorService. The
// aggregation client (package aggregate) and the visibility labels admin (package visibility)
// are built on this package.
//
// fakehbase loads no coprocessor: every endpoint call fails there with an error matching
// hberr.ErrNotSupported that names the endpoint's service and method.
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan,
// kerberos, coprocessor, aggregate, visibility, hrpc, hberr, hbasetrace, hbasetest,
// hbasetest/faultnet and fakehbase. Before v1.0.0 a minor version (v0.X.0) may change the API
// of the stable packages; CHANGELOG.md lists every change with what to use instead; a patch
// version (v0.X.Y) never changes it. The lower layers (region, zk, sasl, cipher) may change in
// any minor version. internal/... is not API.
//
//snippets:text m := coprocessor.MethodOf
package coprocessor
