// Package wire is the wire side of package hrpc: the protobuf messages and KeyValue cellblocks
// the client sends and reads, which are not part of hrpc's API.
//
// hrpc's exported surface is requests, results, options, filters, comparators, cells and the
// admin descriptors. How they become protobuf is hidden so that a change of the generated code
// (internal/pb) or of the encoding breaks no user. It lives in two places:
//
//   - here: everything that names no hrpc type. The interfaces the client and the region
//     connections drive a request through (Call, Batchable, RequestRecycler, Scan), the
//     KeyValue codec (Cell, AppendCell, CellReader), the response checks (CheckResult), the
//     client's own requests (scanner open/next/close/renew, the hbase:meta lookups, the
//     region probe, the connection registry, MultiRequest batches) and the admin requests
//     built from names and protobuf schemas.
//   - in hrpc, unexported: what needs hrpc's own types or fields (marshalling a Get from its
//     options, decoding into a Result, a descriptor to and from its schema). hrpc registers
//     one value in its init (RegisterHrpc) whose methods are that code; package
//     internal/hrpcwire, which imports hrpc and so can name its types, asserts it once to its
//     interface hrpcwire.API and gives the client typed functions (hrpcwire.Get, ...).
//
// That registration is the one piece of package state: it is set once, during the
// initialization of package hrpc, before any code that imports hrpc runs, and never changed
// (grpc-go's internal package passes functions between its packages the same way).
//
// The errors here speak as hrpc, whose half this is: a bad argument is "hrpc: bad request:
// ..." and wraps hberr.ErrBadRequest.
package wire

// hrpcAPI is what package hrpc registered (RegisterHrpc).
var hrpcAPI any

// RegisterHrpc is called once, by package hrpc's init, with the value whose methods are hrpc's
// unexported wire code (see the package documentation). A second call is a bug of the module,
// not bad input: it panics, at initialization.
func RegisterHrpc(api any) {
	if hrpcAPI != nil {
		panic("wire: RegisterHrpc called twice")
	}
	hrpcAPI = api
}

// Hrpc returns the value package hrpc registered. Any package that imports hrpc sees it set,
// because hrpc's init runs before the importing package's initialization.
func Hrpc() any { return hrpcAPI }
