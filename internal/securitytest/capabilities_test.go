package securitytest

import (
	"slices"
	"testing"

	"github.com/go-hbase/hbase/admin"
)

// The secure cluster runs Kerberos, the AccessController (with cell ACLs) and the
// VisibilityController: SecurityCapabilities lists those four, as Java's
// getSecurityCapabilities does, for the superuser and for the guest alike.
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
		got := make([]string, len(caps))
		for i, c := range caps {
			got[i] = string(c)
		}
		if !slices.Equal(got, java) || len(caps) != len(want) {
			t.Fatalf("SecurityCapabilities as the %s = %q; Java's getSecurityCapabilities %q; want %q", who, caps, java, want)
		}
		for _, c := range want {
			if !slices.Contains(caps, c) {
				t.Fatalf("SecurityCapabilities as the %s = %q; want %s among them", who, caps, c)
			}
		}
	}
}
