package engine

// clientOf is what package hbase registered (RegisterClientOf): it returns the engine of an
// *hbase.Client. Packages built on the client (admin, bufwriter, parallelscan, kerberos) take
// an *hbase.Client and reach its engine through Of. Package hbase imports this one, so this
// one cannot name hbase.Client; the registration is set once, during the initialization of
// package hbase, before any package that imports hbase runs, and never changed (as
// wire.RegisterHrpc is for hrpc).
var clientOf func(any) *Client

// RegisterClientOf is called once, by package hbase's init. A second call is a bug of the
// module, not bad input: it panics, at initialization.
func RegisterClientOf(f func(any) *Client) {
	if clientOf != nil {
		panic("engine: RegisterClientOf called twice")
	}
	clientOf = f
}

// Of returns the engine of c, an *hbase.Client; nil for a nil client.
func Of(c any) *Client { return clientOf(c) }
