package admin

import (
	"context"

	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// ClusterStatus returns what the master knows of the cluster: the active and backup masters,
// the live servers with their regions and each region's load (requests, store files, sizes,
// data locality), the dead servers, and the regions in transition.
func (a *Admin) ClusterStatus(ctx context.Context) (*hrpc.ClusterStatus, error) {
	ctx, call := a.begin(ctx, "ClusterStatus", "", "")
	st, err := a.clusterStatus(ctx)
	return st, call.end(ctx, err)
}

func (a *Admin) clusterStatus(ctx context.Context) (*hrpc.ClusterStatus, error) {
	resp := &pb.GetClusterStatusResponse{}
	if err := a.callMaster(ctx, wire.MethodGetClusterStatus, wire.ClusterStatusRequest(), resp); err != nil {
		return nil, err
	}
	return hrpcwire.ParseClusterStatus(resp), nil
}

// SetBalancer switches the balancer on or off and returns whether it was on. Switching it off
// waits for a balance in progress to end.
func (a *Admin) SetBalancer(ctx context.Context, on bool) (prev bool, err error) {
	ctx, call := a.begin(ctx, "SetBalancer", "", "")
	resp := &pb.SetBalancerRunningResponse{}
	if err := a.callMaster(ctx, wire.MethodSetBalancerRunning, wire.SetBalancerRequest(on), resp); err != nil {
		return false, call.end(ctx, err)
	}
	return resp.GetPrevBalanceValue(), call.end(ctx, nil)
}

// BalancerEnabled reports whether the balancer is on.
func (a *Admin) BalancerEnabled(ctx context.Context) (bool, error) {
	ctx, call := a.begin(ctx, "BalancerEnabled", "", "")
	resp := &pb.IsBalancerEnabledResponse{}
	if err := a.callMaster(ctx, wire.MethodIsBalancerEnabled, wire.BalancerEnabledRequest(), resp); err != nil {
		return false, call.end(ctx, err)
	}
	return resp.GetEnabled(), call.end(ctx, nil)
}

// Balance runs the balancer once and reports whether it ran (it does not while it is off or
// while regions are in transition). The moves it decides are under way when it returns.
func (a *Admin) Balance(ctx context.Context) (ran bool, err error) {
	ctx, call := a.begin(ctx, "Balance", "", "")
	resp := &pb.BalanceResponse{}
	if err := a.callMaster(ctx, wire.MethodBalance, wire.BalanceRequest(), resp); err != nil {
		return false, call.end(ctx, err)
	}
	return resp.GetBalancerRan(), call.end(ctx, nil)
}

// SetNormalizer switches the region normalizer on or off and returns whether it was on.
func (a *Admin) SetNormalizer(ctx context.Context, on bool) (prev bool, err error) {
	ctx, call := a.begin(ctx, "SetNormalizer", "", "")
	resp := &pb.SetNormalizerRunningResponse{}
	if err := a.callMaster(ctx, wire.MethodSetNormalizerRunning, wire.SetNormalizerRequest(on), resp); err != nil {
		return false, call.end(ctx, err)
	}
	return resp.GetPrevNormalizerValue(), call.end(ctx, nil)
}

// NormalizerEnabled reports whether the region normalizer is on.
func (a *Admin) NormalizerEnabled(ctx context.Context) (bool, error) {
	ctx, call := a.begin(ctx, "NormalizerEnabled", "", "")
	resp := &pb.IsNormalizerEnabledResponse{}
	if err := a.callMaster(ctx, wire.MethodIsNormalizerEnabled, wire.NormalizerEnabledRequest(), resp); err != nil {
		return false, call.end(ctx, err)
	}
	return resp.GetEnabled(), call.end(ctx, nil)
}
