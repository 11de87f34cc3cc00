package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// SetThrottle sets target's throttle of t.Type to t (replacing the one of that type it had;
// its throttles of other types stay). The master stores it at once; the region servers apply
// it when their quota caches next refresh (hbase.quota.refresh.period, 5 minutes by default).
// Calls over it then fail with hberr.ErrThrottled, which the client waits out as the server
// says, within each call's context. The cluster needs hbase.quota.enabled (else
// hberr.ErrNotSupported); a target or throttle HBase cannot take is hberr.ErrBadRequest and
// nothing is sent.
func (a *Admin) SetThrottle(ctx context.Context, target QuotaTarget, t Throttle) error {
	ctx, call := a.begin(ctx, "SetThrottle", target.name(), target.Table)
	req, err := wire.SetThrottleRequest(subject(target), pb.ThrottleType(t.Type), t.Limit, t.Per, t.ClusterWide)
	if err == nil {
		err = a.setQuota(ctx, req)
	}
	return call.end(ctx, err)
}

// RemoveThrottle removes target's throttle of type typ (none is no error).
func (a *Admin) RemoveThrottle(ctx context.Context, target QuotaTarget, typ ThrottleType) error {
	ctx, call := a.begin(ctx, "RemoveThrottle", target.name(), target.Table)
	req, err := wire.RemoveThrottleRequest(subject(target), pb.ThrottleType(typ), false)
	if err == nil {
		err = a.setQuota(ctx, req)
	}
	return call.end(ctx, err)
}

// RemoveThrottles removes every throttle of target (none is no error). Its space quota and a
// user's bypass of the global throttles stay.
func (a *Admin) RemoveThrottles(ctx context.Context, target QuotaTarget) error {
	ctx, call := a.begin(ctx, "RemoveThrottles", target.name(), target.Table)
	req, err := wire.RemoveThrottleRequest(subject(target), 0, true)
	if err == nil {
		err = a.setQuota(ctx, req)
	}
	return call.end(ctx, err)
}

// SetBypassGlobals makes user's calls bypass (or not) the throttles of tables, namespaces and
// region servers: held to the user's own throttles only.
func (a *Admin) SetBypassGlobals(ctx context.Context, user string, bypass bool) error {
	ctx, call := a.begin(ctx, "SetBypassGlobals", QuotaTarget{User: user}.name(), "")
	req, err := wire.BypassGlobalsRequest(user, bypass)
	if err == nil {
		err = a.setQuota(ctx, req)
	}
	return call.end(ctx, err)
}

// SetSpaceQuota limits the space of a table or a namespace (target.Table or
// target.Namespace) to q.Limit bytes, with q.Policy enforced once it is over, replacing its
// space quota if it had one. The master computes the use from the region servers' reports
// (every hbase.master.quotas.observer.chore.period, 1 minute by default) and the region
// servers enforce the policy after their next refresh (hbase.regionserver.quotas.policy.refresher.chore.period).
// Writes refused by it fail with hberr.ErrSpaceQuotaViolated.
func (a *Admin) SetSpaceQuota(ctx context.Context, target QuotaTarget, q SpaceQuota) error {
	ctx, call := a.begin(ctx, "SetSpaceQuota", target.name(), target.Table)
	req, err := wire.SpaceQuotaRequest(subject(target), q.Limit, pb.SpaceViolationPolicy(q.Policy))
	if err == nil {
		err = a.setQuota(ctx, req)
	}
	return call.end(ctx, err)
}

// RemoveSpaceQuota removes the space quota of a table or a namespace; its policy stops being
// enforced after the region servers' next refresh.
func (a *Admin) RemoveSpaceQuota(ctx context.Context, target QuotaTarget) error {
	ctx, call := a.begin(ctx, "RemoveSpaceQuota", target.name(), target.Table)
	req, err := wire.RemoveSpaceQuotaRequest(subject(target))
	if err == nil {
		err = a.setQuota(ctx, req)
	}
	return call.end(ctx, err)
}

// SetRPCThrottle switches every throttle on or off at once (the quotas stay stored) and
// returns whether they were on.
func (a *Admin) SetRPCThrottle(ctx context.Context, on bool) (prev bool, err error) {
	ctx, call := a.begin(ctx, "SetRPCThrottle", "", "")
	resp := &pb.SwitchRpcThrottleResponse{}
	err = quotaSupport(a.callMaster(ctx, wire.MethodSwitchRpcThrottle, wire.SwitchRPCThrottleRequest(on), resp))
	return resp.GetPreviousRpcThrottleEnabled(), call.end(ctx, err)
}

// RPCThrottleEnabled reports whether throttles are applied (SetRPCThrottle).
func (a *Admin) RPCThrottleEnabled(ctx context.Context) (bool, error) {
	ctx, call := a.begin(ctx, "RPCThrottleEnabled", "", "")
	resp := &pb.IsRpcThrottleEnabledResponse{}
	err := quotaSupport(a.callMaster(ctx, wire.MethodIsRpcThrottleEnabled, &pb.IsRpcThrottleEnabledRequest{}, resp))
	return resp.GetRpcThrottleEnabled(), call.end(ctx, err)
}

// SetExceedThrottleQuota lets calls exceed their user, table and namespace throttles while the
// region server throttle ("all") still has room (on), or not (off), and returns the previous
// setting. HBase refuses to switch it on without a region server throttle of reads and writes.
func (a *Admin) SetExceedThrottleQuota(ctx context.Context, on bool) (prev bool, err error) {
	ctx, call := a.begin(ctx, "SetExceedThrottleQuota", "", "")
	resp := &pb.SwitchExceedThrottleQuotaResponse{}
	err = quotaSupport(a.callMaster(ctx, wire.MethodSwitchExceedThrottleQuota, wire.SwitchExceedThrottleQuotaRequest(on), resp))
	return resp.GetPreviousExceedThrottleQuotaEnabled(), call.end(ctx, err)
}

func (a *Admin) setQuota(ctx context.Context, req *pb.SetQuotaRequest) error {
	return quotaSupport(a.callMaster(ctx, wire.MethodSetQuota, req, &pb.SetQuotaResponse{}))
}

func subject(t QuotaTarget) wire.QuotaSubject {
	return wire.QuotaSubject{User: t.User, Table: t.Table, Namespace: t.Namespace, RegionServer: t.RegionServer}
}

// quotasOff says how to switch quotas on.
const quotasOff = "quotas are off in this cluster (set hbase.quota.enabled to true on the master and the region servers, and restart them)"

// quotaSupport types the master's refusal of a quota call in a cluster without quotas (a
// DoNotRetryIOException "quota support disabled", whose class says nothing) as
// hberr.ErrNotSupported, saying how to switch them on.
func quotaSupport(err error) error {
	if re, ok := errors.AsType[*hberr.RemoteError](err); ok && strings.Contains(re.Message, "quota support disabled") {
		return fmt.Errorf("%w: %s: %w", hberr.ErrNotSupported, quotasOff, err)
	}
	return err
}
