package admin

import (
	"context"

	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/wire"
)

// adminCall is one call of the Admin API: the name its error carries and, when the client
// has hooks, its events. Its RPCs (to the master, or to a region server's AdminService,
// procedure polls included) are its Attempts; the reads of hbase:meta some calls make are
// Get and Scan calls of their own, in its context.
type adminCall struct {
	op, name string
	obs      *engine.CallObs // nil without hooks
}

// adminObsKey carries an admin call's *engine.CallObs to callMaster and onRegionServer, which all
// the calls share; an admin call runs its RPCs one after the other, so it needs no lock.
type adminObsKey struct{}

// begin starts admin call op (the method's name, as its error names it) about name. table
// is the table the call is about, for the hooks ("" when none: a namespace, a snapshot...).
func (a *Admin) begin(ctx context.Context, op, name, table string) (context.Context, adminCall) {
	ac := adminCall{op: op, name: name}
	if a.e.Hooks == nil {
		return ctx, ac
	}
	o := engine.NewCallObs(a.e, op, table, nil)
	ac.obs = &o
	ctx = o.Begin(ctx)
	return context.WithValue(ctx, adminObsKey{}, ac.obs), ac
}

// end returns err as the call's *hberr.AdminError (nil stays nil) after running CallDone.
func (ac adminCall) end(ctx context.Context, err error) error {
	err = adminError(ac.op, ac.name, err)
	if ac.obs != nil {
		ac.obs.End(ctx, err)
	}
	return err
}

// regionTable is the table of a full region name, "" for an encoded one.
func regionTable(name []byte) string {
	t, _, _ := wire.ParseRegionName(name)
	return t
}

// adminObs is the admin call that ctx belongs to; nil without hooks.
func (a *Admin) adminObs(ctx context.Context) *engine.CallObs {
	if a.e.Hooks == nil {
		return nil
	}
	o, _ := ctx.Value(adminObsKey{}).(*engine.CallObs)
	return o
}
