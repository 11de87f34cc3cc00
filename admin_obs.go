package hbase

import (
	"context"
	"time"

	"github.com/go-hbase/hbase/hbasetrace"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// adminCall is one call of the Admin API: the name its error carries and, when the client
// has hooks, its events. Its RPCs (to the master, or to a region server's AdminService,
// procedure polls included) are its Attempts; the reads of hbase:meta some calls make are
// Get and Scan calls of their own, in its context.
type adminCall struct {
	op, name string
	obs      *callObs // nil without hooks
}

// adminObsKey carries an admin call's *callObs to callMaster and onRegionServer, which all
// the calls share; an admin call runs its RPCs one after the other, so it needs no lock.
type adminObsKey struct{}

// begin starts admin call op (the method's name, as its error names it) about name. table
// is the table the call is about, for the hooks ("" when none: a namespace, a snapshot...).
func (a *Admin) begin(ctx context.Context, op, name, table string) (context.Context, adminCall) {
	ac := adminCall{op: op, name: name}
	if a.c.hooks == nil {
		return ctx, ac
	}
	var t []byte
	if table != "" {
		t = []byte(table)
	}
	o := newCallObs(a.c, op, t, nil)
	ac.obs = &o
	ctx = o.begin(ctx)
	return context.WithValue(ctx, adminObsKey{}, ac.obs), ac
}

// end returns err as the call's *hberr.AdminError (nil stays nil) after running CallDone.
func (ac adminCall) end(ctx context.Context, err error) error {
	err = adminError(ac.op, ac.name, err)
	if ac.obs != nil {
		ac.obs.end(ctx, err)
	}
	return err
}

// regionTable is the table of a full region name, "" for an encoded one.
func regionTable(name []byte) string {
	t, _, _ := wire.ParseRegionName(name)
	return t
}

// adminObs is the admin call that ctx belongs to; nil without hooks.
func (a *Admin) adminObs(ctx context.Context) *callObs {
	if a.c.hooks == nil {
		return nil
	}
	o, _ := ctx.Value(adminObsKey{}).(*callObs)
	return o
}

// adminRPC sends one RPC of an admin call on conn, reported as an Attempt when the call is
// observed. regionName is nil for the master.
func (a *Admin) adminRPC(ctx context.Context, o *callObs, conn *region.Client, regionName []byte,
	method string, req, resp proto.Message) error {
	if o == nil {
		_, err := conn.Call(ctx, method, req, nil, resp)
		return err
	}
	start := time.Now()
	_, err := conn.Call(ctx, method, req, nil, resp)
	d := time.Since(start)
	o.attempts++
	o.region, o.server = regionName, conn.Addr()
	reqBytes, respBytes := requestSize(req, nil), 0
	if err == nil {
		respBytes = proto.Size(resp)
	}
	o.reqTotal += reqBytes
	o.respTotal += respBytes
	if o.hooks.Attempt != nil {
		o.hooks.Attempt(ctx, hbasetrace.AttemptInfo{Op: o.op, Table: o.table, Region: regionName,
			Server: conn.Addr(), Attempt: o.attempts, Duration: d, RequestBytes: reqBytes,
			ResponseBytes: respBytes, Err: err, Class: hberr.Class(err)})
	}
	return err
}

// adminRetrying reports that an admin call will be tried again; conn is nil when the master
// or the region was not found. relocate: the master or the region is looked up again.
func adminRetrying(ctx context.Context, o *callObs, conn *region.Client, err error, relocate bool) {
	if o == nil {
		return
	}
	o.retries++
	if o.hooks.Retry == nil {
		return
	}
	var addr string
	if conn != nil {
		addr = conn.Addr()
	}
	o.hooks.Retry(ctx, hbasetrace.RetryInfo{Op: o.op, Table: o.table, Server: addr,
		Attempt: o.attempts, Err: err, Class: hberr.Class(err), Relocate: relocate})
}
