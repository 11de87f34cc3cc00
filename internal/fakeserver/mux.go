package fakeserver

// Methods returns a Handler that dispatches on the request's method name ("Get", "Multi",
// "Scan", "IsMasterRunning", ...). An unknown method is answered with a DoNotRetryIOException,
// as HBase answers a method its service does not have.
func Methods(handlers map[string]Handler) Handler {
	return func(r *Request) Response {
		if h, ok := handlers[r.Method]; ok {
			return h(r)
		}
		return Response{Exception: Exception("org.apache.hadoop.hbase.DoNotRetryIOException", "Unknown method "+r.Method)}
	}
}
