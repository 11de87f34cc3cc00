// Package securitytest checks access control (package admin's Grant, Revoke, UserPermissions,
// HasPermissions) and cell-level security (hrpc's CellTTL, CellACL, CellVisibility,
// Authorizations) against one real secure mini cluster running HBase's AccessController and
// VisibilityController, by their effect on what a second Kerberos principal without rights
// (the guest) may read and write, and compares the permission listings with the Java
// client's on the same cluster. It needs GOHBASE_SECURE_CLUSTER=1 (make test sets it):
//
//	GOHBASE_SECURE_CLUSTER=1 go test -v ./internal/securitytest
package securitytest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/internal/testkit"
	"github.com/go-hbase/hbase/kerberos"
)

// The groups the servers give the guest: group grants ("@testers") reach it.
const guestGroup = "testers"

var env = testkit.New(hbasetest.Options{
	Secure:        true,
	AES:           true,
	AccessControl: true,
	Visibility:    true,
	UserGroups:    map[string][]string{"guest": {guestGroup}},
})

func TestMain(m *testing.M) { os.Exit(env.Run(m)) }

// principals are the two clients of the cluster: the client principal (a superuser) and the
// guest, each with an Admin, made once for the package.
type principals struct {
	cl                 *hbasetest.Cluster
	super, guest       *hbase.Client
	superAdm, guestAdm *admin.Admin
}

var (
	pOnce sync.Once
	p     principals
	pErr  error
)

// clients returns the package's clients, skipping the test unless secure cluster tests are
// asked for.
func clients(t *testing.T) principals {
	t.Helper()
	if testing.Short() || os.Getenv("GOHBASE_SECURE_CLUSTER") != "1" {
		t.Skip("real secure cluster test: set GOHBASE_SECURE_CLUSTER=1")
	}
	cl := env.Cluster(t)
	pOnce.Do(func() {
		p.cl = cl
		if p.super, pErr = newClient(cl, cl.ClientPrincipal, cl.Keytab); pErr != nil {
			return
		}
		if p.guest, pErr = newClient(cl, cl.GuestPrincipal, cl.GuestKeytab); pErr != nil {
			return
		}
		p.superAdm, p.guestAdm = admin.New(p.super), admin.New(p.guest)
	})
	if pErr != nil {
		t.Fatal(pErr)
	}
	return p
}

func newClient(cl *hbasetest.Cluster, principal, keytab string) (*hbase.Client, error) {
	return hbase.NewClient(cl.ZKQuorum, hbase.WithZNodeParent(cl.ZNodeParent),
		kerberos.WithKeytab(principal, keytab, cl.KRB5Conf), kerberos.WithProtection(kerberos.ProtectionPrivacy))
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	return testkit.Context(t, 2*time.Minute)
}
