package admin

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
)

// A cluster without HBase's AccessController (the package's plain cluster) refuses every
// access control call: hberr.ErrNotSupported, saying so. The calls with the coprocessor loaded
// are tested against a secure cluster in internal/securitytest.
func TestACLWithoutAccessController(t *testing.T) {
	a := New(newTestClient(t))
	defer a.Close()
	ctx := testContext(t, time.Minute)
	p := Permission{Actions: []Action{ActionRead}}
	_, lerr := a.UserPermissions(ctx, Scope{}, "")
	_, herr := a.HasPermissions(ctx, "", p)
	for name, err := range map[string]error{
		"Grant":           a.Grant(ctx, "guest", p),
		"Revoke":          a.Revoke(ctx, "guest", p),
		"UserPermissions": lerr,
		"HasPermissions":  herr,
	} {
		if !errors.Is(err, hberr.ErrNotSupported) || !strings.Contains(err.Error(), "does not load HBase's AccessController") {
			t.Errorf("%s without the AccessController: %v; want hberr.ErrNotSupported saying so", name, err)
		}
	}
}
