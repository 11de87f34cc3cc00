// Package aggregate is the aggregation client of HBase's AggregateImplementation endpoint:
// the row count, sum, minimum, maximum, mean and standard deviation of a column over a scan's
// rows, computed by the region servers region by region and combined here, with the answers
// Java's AggregationClient gives on the same data. It is built on package coprocessor.
//
// The table's regions must load the endpoint: a table coprocessor
// (org.apache.hadoop.hbase.coprocessor.AggregateImplementation, from the hbase-endpoint jar),
// or hbase.coprocessor.user.region.classes in hbase-site.xml for every table.
//
//	scan, err := hrpc.NewScan("sales", hrpc.StartRow([]byte("2024")), hrpc.StopRow([]byte("2025")),
//		hrpc.Columns([]byte("m"), []byte("amount")))
//	if err != nil {
//		return err
//	}
//	total, ok, err := aggregate.Sum(ctx, client, scan, aggregate.Long())
//	if err != nil {
//		return err
//	}
//	if ok {
//		fmt.Println("total:", total)
//	}
//
// The scan gives the rows (its range, filter, time range, versions) and the column: one family
// and at most one qualifier (RowCount takes any scan). Values are read by an Interpreter, as
// HBase's ColumnInterpreters read them: Long (8-byte big-endian integers) and Double (8-byte
// IEEE 754 doubles); a cell of another length is no value. Sum, Min and Max report whether
// there was any value (Java returns null); Avg and Std return NaN then, as Java does.
//
// Every region of the scan's range is asked (coprocessor.CallRegions): a region that fails
// fails the call with an *hberr.RegionsError naming each failed region, and a table whose
// regions do not load the endpoint fails with an error matching hberr.ErrNotSupported:
//
//	hbase: AggregateService.GetSum "sales": 2 of 2 regions failed; first: hbase: AggregateService.GetSum "sales"/"": org.apache.hadoop.hbase.exceptions.UnknownProtocolException: No registered coprocessor service found for AggregateService in region sales,,1718000000000.4c2a7....
//
// fakehbase loads no coprocessor: every call fails there that way.
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
//snippets:text hbase: AggregateService.GetSum
package aggregate
