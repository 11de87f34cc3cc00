// Package region is one connection to one HBase server (region server or master) for one RPC
// service.
//
// A Client multiplexes calls over the connection by call id. Callers' goroutines encode their
// requests and write them; requests that queue up while another goroutine is writing are
// coalesced into the next write (no timer: a lone call is written at once). One goroutine at a
// time decodes responses and hands them to the waiting callers, which unmarshal their response
// message themselves: a lone caller reads its own response (and those of callers that join it)
// on plain connections, the connection's reader goroutine otherwise (lone.go). A call whose
// context ends returns at once; its late response is dropped. When the connection breaks, every outstanding call fails at once
// with an error wrapping hberr.ErrConnection, Done is closed and later calls fail fast.
//
// Wire format (HBase 2.x): the preamble "HBas" 0 0x50 (SIMPLE; a Handshaker does SASL), then
// be32 length | ConnectionHeader; then request frames
// be32 total | varint len | RequestHeader | varint len | request [| cellblock] and response
// frames be32 total | varint len | ResponseHeader | varint len | response [| cellblock].
// Cellblocks use the KeyValueCodec. Server exceptions become *hberr.RemoteError values that
// errors.Is maps to this package's sentinel errors.
//
// # Stability
//
// Package region is a lower layer of go-hbase: usable on its own (one connection to one server for
// one RPC service), as pgx's pgconn and pgproto3 are below pgx, but not one of the stable packages
// (hbase, admin, bufwriter, parallelscan, kerberos, hrpc, hberr, hbasetrace, hbasetest,
// hbasetest/faultnet and fakehbase). Before v1.0.0 a minor version (v0.X.0) may change the API of
// the stable packages; CHANGELOG.md lists every change with what to use instead; a patch version
// (v0.X.Y) never changes it. The lower layers (region, zk, sasl, cipher) may change in any minor
// version. internal/... is not API. A program that uses the client through package hbase never
// needs to import it.
package region
