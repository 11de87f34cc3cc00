package admin

import (
	"context"
	"slices"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// SecurityCapability is a security feature the cluster's configuration has loaded, as the
// master reports it (Java's Admin.getSecurityCapabilities).
type SecurityCapability string

// The capabilities HBase 2.x reports.
const (
	CapabilitySimpleAuthentication SecurityCapability = "SIMPLE_AUTHENTICATION" // no Kerberos
	CapabilitySecureAuthentication SecurityCapability = "SECURE_AUTHENTICATION" // Kerberos
	CapabilityAuthorization        SecurityCapability = "AUTHORIZATION"         // the AccessController
	CapabilityCellAuthorization    SecurityCapability = "CELL_AUTHORIZATION"    // cell ACLs
	CapabilityCellVisibility       SecurityCapability = "CELL_VISIBILITY"       // the VisibilityController
)

// SecurityCapabilities lists the security features the cluster runs with, in the order of
// the constants above (the master answers in an order of its own that changes from one start
// to the next): what a program can check before it relies on permissions, cell ACLs or
// visibility labels.
func (a *Admin) SecurityCapabilities(ctx context.Context) ([]SecurityCapability, error) {
	ctx, call := a.begin(ctx, "SecurityCapabilities", "", "")
	resp := &pb.SecurityCapabilitiesResponse{}
	if err := a.callMaster(ctx, wire.MethodGetSecurityCapabilities, &pb.SecurityCapabilitiesRequest{}, resp); err != nil {
		return nil, call.end(ctx, err)
	}
	caps := resp.GetCapabilities() // the response is this call's own: sorted in place
	slices.Sort(caps)
	out := make([]SecurityCapability, 0, len(caps))
	for _, c := range caps {
		out = append(out, SecurityCapability(c.String()))
	}
	return out, call.end(ctx, nil)
}
