package admin

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// Quotas returns the quotas hbase:quota holds that f selects (the Java Admin's getQuota, its
// QuotaRetriever), in the table's order: namespaces, the region servers, tables, then users,
// each user's own quota before those on its tables and namespaces (by name). A regular
// expression of f that does not compile is hberr.ErrBadRequest. Unlike HBase 2.6's
// QuotaRetriever, which stops at a row holding no setting (a user whose bypass was switched
// off and who has no throttle), Quotas lists every quota after it.
func (a *Admin) Quotas(ctx context.Context, f QuotaFilter) ([]Quota, error) {
	ctx, call := a.begin(ctx, "Quotas", "", "")
	qs, err := a.quotas(ctx, f)
	return qs, call.end(ctx, err)
}

func (a *Admin) quotas(ctx context.Context, f QuotaFilter) ([]Quota, error) {
	m, err := compileQuotaFilter(f)
	if err != nil {
		return nil, err
	}
	scan, err := hrpc.NewScan(wire.QuotaTable, hrpc.Families([]byte(wire.QuotaSettingsFamily)))
	if err != nil {
		return nil, err
	}
	var out []Quota
	for res, err := range a.c.Scan(ctx, scan) {
		if err != nil {
			if errors.Is(err, hberr.ErrTableNotFound) {
				return nil, fmt.Errorf("%w: %s: %w", hberr.ErrNotSupported, quotasOff, err)
			}
			return nil, err
		}
		for _, c := range res.Cells {
			s, ok, err := wire.ParseQuotaCell(c.Row, c.Qualifier, c.Value)
			if err != nil {
				return nil, err
			}
			if !ok || !m.selects(s.Subject) {
				continue
			}
			// A cell can hold no setting: HBase keeps a bypass switched off as false, and a
			// user's row whose bypass was set then unset stays so. The Java Admin makes no
			// QuotaSettings of it (and HBase 2.6's QuotaRetriever ends its listing there);
			// Quotas skips it and goes on.
			if q := quotaOf(s); len(q.Throttles) > 0 || q.BypassGlobals || q.Space != nil {
				out = append(out, q)
			}
		}
	}
	return out, nil
}

// quotaMatcher is a QuotaFilter compiled.
type quotaMatcher struct {
	user, table, namespace, server *regexp.Regexp
}

func compileQuotaFilter(f QuotaFilter) (quotaMatcher, error) {
	var m quotaMatcher
	for _, x := range []struct {
		what, expr string
		re         **regexp.Regexp
	}{{"user", f.User, &m.user}, {"table", f.Table, &m.table}, {"namespace", f.Namespace, &m.namespace}, {"region server", f.RegionServer, &m.server}} {
		if x.expr == "" {
			continue
		}
		re, err := regexp.Compile(`^(?:` + x.expr + `)$`)
		if err != nil {
			return m, fmt.Errorf("%w: quota filter of %s %q: %w", hberr.ErrBadRequest, x.what, x.expr, err)
		}
		*x.re = re
	}
	return m, nil
}

// selects applies the Java QuotaFilter's precedence: user, then table, namespace, region server.
func (m quotaMatcher) selects(s wire.QuotaSubject) bool {
	switch {
	case m.user != nil:
		if s.User == "" || !m.user.MatchString(s.User) {
			return false
		}
		if m.table == nil && m.namespace == nil {
			return true
		}
		return m.table != nil && s.Table != "" && m.table.MatchString(s.Table) ||
			m.namespace != nil && s.Namespace != "" && m.namespace.MatchString(s.Namespace)
	case m.table != nil:
		return s.User == "" && s.Table != "" && m.table.MatchString(s.Table)
	case m.namespace != nil:
		return s.User == "" && s.Namespace != "" && m.namespace.MatchString(s.Namespace)
	case m.server != nil:
		return s.RegionServer != "" && m.server.MatchString(s.RegionServer)
	}
	return true
}

// quotaOf turns one stored setting into a Quota.
func quotaOf(s wire.QuotaSetting) Quota {
	q := Quota{
		Target:        QuotaTarget{User: s.Subject.User, Table: s.Subject.Table, Namespace: s.Subject.Namespace, RegionServer: s.Subject.RegionServer},
		BypassGlobals: s.Quotas.GetBypassGlobals(),
	}
	if th := s.Quotas.GetThrottle(); th != nil {
		for _, x := range []struct {
			typ ThrottleType
			tq  *pb.TimedQuota
		}{
			{RequestNumber, th.GetReqNum()}, {RequestSize, th.GetReqSize()},
			{WriteNumber, th.GetWriteNum()}, {WriteSize, th.GetWriteSize()},
			{ReadNumber, th.GetReadNum()}, {ReadSize, th.GetReadSize()},
			{RequestCapacityUnit, th.GetReqCapacityUnit()}, {WriteCapacityUnit, th.GetWriteCapacityUnit()},
			{ReadCapacityUnit, th.GetReadCapacityUnit()},
		} {
			if x.tq == nil {
				continue
			}
			q.Throttles = append(q.Throttles, Throttle{
				Type: x.typ, Limit: x.tq.GetSoftLimit(), Per: wire.DurationOf(x.tq.GetTimeUnit()),
				ClusterWide: x.tq.GetScope() == pb.QuotaScope_CLUSTER,
			})
		}
	}
	if sp := s.Quotas.GetSpace(); sp != nil && !sp.GetRemove() {
		q.Space = &SpaceQuota{Limit: sp.GetSoftLimit(), Policy: SpaceViolationPolicy(sp.GetViolationPolicy())}
	}
	return q
}

// SpaceQuotaUsages returns the master's view of every space quota: each table and namespace
// with one, its use and whether it is in violation (the Java Admin's
// getCurrentSpaceQuotaSnapshot, for all of them at once). The master computes it every
// hbase.master.quotas.observer.chore.period (1 minute by default); a quota set since is
// missing until then.
func (a *Admin) SpaceQuotaUsages(ctx context.Context) ([]SpaceQuotaUsage, error) {
	ctx, call := a.begin(ctx, "SpaceQuotaUsages", "", "")
	resp := &pb.GetQuotaStatesResponse{}
	err := quotaSupport(a.callMaster(ctx, wire.MethodGetQuotaStates, &pb.GetQuotaStatesRequest{}, resp))
	if err != nil {
		return nil, call.end(ctx, err)
	}
	var out []SpaceQuotaUsage
	for _, t := range resp.GetTableSnapshots() {
		out = append(out, usageOf(QuotaTarget{Table: wire.TableNameString(t.GetTableName())}, t.GetSnapshot()))
	}
	for _, n := range resp.GetNsSnapshots() {
		out = append(out, usageOf(QuotaTarget{Namespace: n.GetNamespace()}, n.GetSnapshot()))
	}
	return out, call.end(ctx, nil)
}

// RegionServerSpaceQuotaUsages returns one region server's view of the space quotas of the
// tables it serves (the Java Admin's getRegionServerSpaceQuotaSnapshots). server is
// "host:port" or "host,port,startcode".
func (a *Admin) RegionServerSpaceQuotaUsages(ctx context.Context, server string) ([]SpaceQuotaUsage, error) {
	ctx, call := a.begin(ctx, "RegionServerSpaceQuotaUsages", server, "")
	sn, err := a.liveServer(ctx, server)
	resp := &pb.GetSpaceQuotaSnapshotsResponse{}
	if err == nil {
		err = a.onServer(ctx, sn.Addr(), wire.MethodGetSpaceQuotaSnapshots, &pb.GetSpaceQuotaSnapshotsRequest{}, resp)
	}
	if err != nil {
		return nil, call.end(ctx, quotaSupport(err))
	}
	out := make([]SpaceQuotaUsage, 0, len(resp.GetSnapshots()))
	for _, t := range resp.GetSnapshots() {
		out = append(out, usageOf(QuotaTarget{Table: wire.TableNameString(t.GetTableName())}, t.GetSnapshot()))
	}
	return out, call.end(ctx, nil)
}

// SpaceQuotaTableSizes returns the space each table uses, in bytes, as the region servers last
// reported it to the master (the Java Admin's getSpaceQuotaTableSizes): every table with a
// region reported, whether or not it has a space quota.
func (a *Admin) SpaceQuotaTableSizes(ctx context.Context) (map[string]uint64, error) {
	ctx, call := a.begin(ctx, "SpaceQuotaTableSizes", "", "")
	resp := &pb.GetSpaceQuotaRegionSizesResponse{}
	err := quotaSupport(a.callMaster(ctx, wire.MethodGetSpaceQuotaRegionSizes, &pb.GetSpaceQuotaRegionSizesRequest{}, resp))
	if err != nil {
		return nil, call.end(ctx, err)
	}
	out := make(map[string]uint64, len(resp.GetSizes()))
	for _, s := range resp.GetSizes() {
		out[wire.TableNameString(s.GetTableName())] += s.GetSize()
	}
	return out, call.end(ctx, nil)
}

func usageOf(t QuotaTarget, s *pb.SpaceQuotaSnapshot) SpaceQuotaUsage {
	u := SpaceQuotaUsage{Target: t, Usage: s.GetQuotaUsage(), Limit: s.GetQuotaLimit(), InViolation: s.GetQuotaStatus().GetInViolation()}
	if u.InViolation {
		u.Policy = SpaceViolationPolicy(s.GetQuotaStatus().GetViolationPolicy())
	}
	return u
}
