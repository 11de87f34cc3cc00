// Package fakeserver is an in-process fake HBase server speaking the HBase RPC wire protocol
// on 127.0.0.1, for unit tests of package region and of the client's retry logic.
//
// It accepts the SIMPLE preamble ("HBas" 0 0x50) and the ConnectionHeader, then reads request
// frames and answers each with what a Handler returns. Every request is handled in its own
// goroutine (like the handler pool of a real server), so responses may go out in any order.
// A Response can also delay the answer, never answer, close the connection, answer with an
// exception (see Exception) or write raw bytes (garbage or truncated frames).
//
//	srv, err := fakeserver.Start(fakeserver.Options{
//		Handler: func(r *fakeserver.Request) fakeserver.Response {
//			var get pb.GetRequest
//			if err := r.Unmarshal(&get); err != nil {
//				return fakeserver.Response{Exception: fakeserver.Exception("org.apache.hadoop.hbase.DoNotRetryIOException", err.Error())}
//			}
//			return fakeserver.Response{Msg: &pb.GetResponse{}}
//		},
//	})
//	defer srv.Close()
//	// dial srv.Addr() with region.Dial
//
// The fake does not import package region, so region's own tests can use it.
package fakeserver
