package securitytest

import (
	"slices"
	"testing"

	"github.com/go-hbase/hbase/admin"
)

// The secure cluster runs Kerberos, the AccessController (with cell ACLs) and the
// VisibilityController: SecurityCapabilities lists those four in the constants' order, the
// ones Java's getSecurityCapabilities lists, for the superuser and for the guest alike.
func TestSecurityCapabilities(t *testing.T) {
	p := clients(t)
	ctx := testContext(t)
	java, err := p.cl.JavaSecurityCapabilities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []admin.SecurityCapability{admin.CapabilitySecureAuthentication, admin.CapabilityAuthorization,
		admin.CapabilityCellAuthorization, admin.CapabilityCellVisibility}
	for who, a := range map[string]*admin.Admin{"superuser": p.superAdm, "guest": p.guestAdm} {
		caps, err := a.SecurityCapabilities(ctx)
		if err != nil {
			t.Fatalf("SecurityCapabilities as the %s: %v", who, err)
		}
		// The master answers in an order of its own; SecurityCapabilities sorts them.
		got := make([]string, len(caps))
		for i, c := range caps {
			got[i] = string(c)
		}
		if !slices.Equal(caps, want) || !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(java))) {
			t.Fatalf("SecurityCapabilities as the %s = %q; Java's getSecurityCapabilities %q; want %q", who, caps, java, want)
		}
	}
}
