package securitytest

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/visibility"
	"google.golang.org/protobuf/proto"
)

// A cell with a TTL is read until the TTL has passed since its timestamp, and not after; a
// cell without one stays. A cell whose timestamp is older than its TTL is never read.
func TestCellTTL(t *testing.T) {
	p := clients(t)
	ctx := testContext(t)
	tb := p.table(t, []string{"f"})
	const ttl = 2 * time.Second
	mustPut(t, p.super, tb, "r", "f:keep", "v")
	mustPut(t, p.super, tb, "r", "f:ttl", "v", hrpc.CellTTL(ttl))
	old := uint64(time.Now().Add(-time.Hour).UnixMilli())
	p2, err := hrpc.NewPut(tb, []byte("r"), hrpc.ValueAt([]byte("f"), []byte("old"), old, []byte("v")), hrpc.CellTTL(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.super.Put(ctx, p2); err != nil {
		t.Fatal(err)
	}
	inc, err := hrpc.NewIncrement(tb, []byte("r"), hrpc.Amount([]byte("f"), []byte("n"), 1), hrpc.CellTTL(ttl))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.super.Increment(ctx, inc); err != nil {
		t.Fatal(err)
	}
	written := time.Now()
	wantRead(t, p.super, tb, "r", []string{"f:keep=v", "f:n=\x00\x00\x00\x00\x00\x00\x00\x01", "f:ttl=v"})
	time.Sleep(time.Until(written.Add(ttl + 500*time.Millisecond)))
	wantRead(t, p.super, tb, "r", []string{"f:keep=v"})
}

// On a table whose regions read cell ACLs (hbase.security.access.early_out false), the guest,
// without any permission on the table, reads the cells whose ACL grants it (or its group)
// READ and no other, and overwrites only the cell whose ACL grants it WRITE.
func TestCellACL(t *testing.T) {
	p := clients(t)
	ctx := testContext(t)
	tb := p.table(t, []string{"f"}, "hbase.security.access.early_out=false")
	mustPut(t, p.super, tb, "r", "f:mine", "v", hrpc.CellACL("guest", hrpc.CellRead))
	mustPut(t, p.super, tb, "r", "f:group", "v", hrpc.CellACL("@"+guestGroup, hrpc.CellRead))
	mustPut(t, p.super, tb, "r", "f:other", "v", hrpc.CellACL("nobody", hrpc.CellRead|hrpc.CellWrite))
	mustPut(t, p.super, tb, "r", "f:plain", "v")
	mustPut(t, p.super, tb, "r", "f:rw", "v", hrpc.CellACL("guest", hrpc.CellRead|hrpc.CellWrite))

	wantRead(t, p.guest, tb, "r", []string{"f:group=v", "f:mine=v", "f:rw=v"})
	wantRead(t, p.super, tb, "r", []string{"f:group=v", "f:mine=v", "f:other=v", "f:plain=v", "f:rw=v"})

	mustPut(t, p.guest, tb, "r", "f:rw", "guest's")
	denied(t, "overwriting a cell whose ACL grants READ only", put(ctx, p.guest, tb, "r", "f:mine", "guest's"), "WRITE")
	denied(t, "overwriting a cell without an ACL", put(ctx, p.guest, tb, "r", "f:plain", "guest's"), "WRITE")
	wantRead(t, p.super, tb, "r", []string{"f:group=v", "f:mine=v", "f:other=v", "f:plain=v", "f:rw=guest's"})

	// The table's permissions are untouched by cell ACLs: the guest has none there.
	if got := p.sameListing(t, admin.Scope{Table: tb}, "guest"); len(got) != 0 {
		t.Fatalf("the guest's table permissions: %q", got)
	}
}

// Labels defined once for the package's cluster (the launcher refuses a label twice).
var (
	labels     = []string{"secret", "ops"}
	labelsOnce sync.Once
	labelsErr  error
)

// A cell labelled with a visibility expression is hidden from a reader without the labels it
// needs and shown once the reader is authorized for them; Authorizations narrows a read to
// the labels it names (of those the user has). An undefined label and a bad expression are
// refused with their errors.
func TestVisibility(t *testing.T) {
	p := clients(t)
	ctx := testContext(t)
	// The labels and the guest's authorizations go through package visibility over Kerberos.
	labelsOnce.Do(func() { labelsErr = visibility.AddLabels(ctx, p.super, labels...) })
	if labelsErr != nil {
		t.Fatal(labelsErr)
	}
	tb := p.table(t, []string{"f"})
	if err := p.superAdm.Grant(ctx, "guest", admin.Permission{Scope: admin.Scope{Table: tb}, Actions: actRead}); err != nil {
		t.Fatal(err)
	}
	mustPut(t, p.super, tb, "r", "f:open", "v")
	mustPut(t, p.super, tb, "r", "f:secret", "v", hrpc.CellVisibility("secret"))
	mustPut(t, p.super, tb, "r", "f:either", "v", hrpc.CellVisibility("secret|ops"))
	mustPut(t, p.super, tb, "r", "f:both", "v", hrpc.CellVisibility("(secret & ops)"))
	mustPut(t, p.super, tb, "r", "f:notops", "v", hrpc.CellVisibility("!ops"))

	// Without authorizations the guest sees the unlabelled cell and the one only a missing
	// label satisfies (once its READ on the table has reached the server).
	wantReadSoon(t, p.guest, tb, "r", []string{"f:notops=v", "f:open=v"})
	// Asking for a label it was not given changes nothing.
	wantRead(t, p.guest, tb, "r", []string{"f:notops=v", "f:open=v"}, hrpc.Authorizations("secret"))

	// Only a superuser gives labels: the guest cannot give itself one.
	if err := visibility.SetAuths(ctx, p.guest, "guest", "secret"); !errors.Is(err, hberr.ErrPermissionDenied) {
		t.Fatalf("the guest's SetAuths of its own label: %v; want hberr.ErrPermissionDenied", err)
	}
	if err := visibility.SetAuths(ctx, p.super, "guest", "secret"); err != nil {
		t.Fatal(err)
	}
	cleared := false
	defer func() {
		if !cleared {
			visibility.ClearAuths(ctx, p.super, "guest", "secret")
		}
	}()
	if auths, err := visibility.Auths(ctx, p.super, "guest"); err != nil || len(auths) != 1 || auths[0] != "secret" {
		t.Fatalf("Auths(guest) = %q, %v; want [secret]", auths, err)
	}
	wantReadSoon(t, p.guest, tb, "r", []string{"f:either=v", "f:notops=v", "f:open=v", "f:secret=v"})
	wantRead(t, p.guest, tb, "r", []string{"f:either=v", "f:notops=v", "f:open=v", "f:secret=v"}, hrpc.Authorizations("secret"))
	// No label reads as no option does: with every label the user has.
	wantRead(t, p.guest, tb, "r", []string{"f:either=v", "f:notops=v", "f:open=v", "f:secret=v"}, hrpc.Authorizations())
	// A scan reads with them too.
	s, err := hrpc.NewScan(tb, hrpc.Authorizations("secret"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for res, err := range p.guest.Scan(ctx, s) {
		if err != nil {
			t.Fatal(err)
		}
		n += len(res.Cells)
	}
	if n != 4 {
		t.Fatalf("the guest's Scan with the secret label read %d cells; want 4", n)
	}

	err = put(ctx, p.super, tb, "r", "f:x", "v", hrpc.CellVisibility("secret|nosuchlabel"))
	if !errors.Is(err, hberr.ErrVisibilityLabel) {
		t.Fatalf("Put with an undefined label: %v; want hberr.ErrVisibilityLabel", err)
	}
	t.Logf("Put with an undefined label: %v", err)
	err = put(ctx, p.super, tb, "r", "f:x", "v", hrpc.CellVisibility("secret|"))
	if !errors.Is(err, hberr.ErrVisibilityExpression) {
		t.Fatalf("Put with a bad expression: %v; want hberr.ErrVisibilityExpression", err)
	}
	wantRead(t, p.super, tb, "r", []string{"f:both=v", "f:either=v", "f:notops=v", "f:open=v", "f:secret=v"}, hrpc.Authorizations(labels...))

	// Once its label is cleared the guest reads as it did before it had one.
	if err := visibility.ClearAuths(ctx, p.super, "guest", "secret"); err != nil {
		t.Fatal(err)
	}
	cleared = true
	wantReadSoon(t, p.guest, tb, "r", []string{"f:notops=v", "f:open=v"})
}

// The attributes go-hbase sends are the bytes the Java client (the launcher's, the cluster's
// version) sends for the same settings.
func TestCellSecurityAttributesMatchJava(t *testing.T) {
	p := clients(t)
	ctx := testContext(t)
	const expr = "secret|(ops&!intern)"
	java, err := p.cl.JavaCellSecurityAttributes(ctx, 5*time.Second, "guest", []string{"READ"}, expr, "secret", "ops")
	if err != nil {
		t.Fatal(err)
	}
	put, err := hrpc.NewPut("t", []byte("r"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")),
		hrpc.CellTTL(5*time.Second), hrpc.CellACL("guest", hrpc.CellRead), hrpc.CellVisibility(expr))
	if err != nil {
		t.Fatal(err)
	}
	req, _, err := hrpcwire.Mutation(put).Marshal([]byte("region"), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[string][]byte)
	for _, a := range req.(*pb.MutateRequest).GetMutation().GetAttribute() {
		got[a.GetName()] = a.GetValue()
	}
	g, err := hrpc.NewGet("t", []byte("r"), hrpc.Authorizations("secret", "ops"))
	if err != nil {
		t.Fatal(err)
	}
	greq, _, err := hrpcwire.Get(g).Marshal([]byte("region"), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The request is a pooled wrapper of a GetRequest: read it back as one.
	b, err := proto.Marshal(greq)
	if err != nil {
		t.Fatal(err)
	}
	var gr pb.GetRequest
	if err := proto.Unmarshal(b, &gr); err != nil {
		t.Fatal(err)
	}
	var auths []byte
	for _, a := range gr.GetGet().GetAttribute() {
		if a.GetName() == wire.AttrVisibility {
			auths = a.GetValue()
		}
	}
	for name, pair := range map[string][2][]byte{
		wire.AttrTTL:           {got[wire.AttrTTL], java.TTL},
		wire.AttrACL:           {got[wire.AttrACL], java.ACL},
		wire.AttrVisibility:    {got[wire.AttrVisibility], java.Visibility},
		"authorizations (Get)": {auths, java.Authorizations},
	} {
		if len(pair[1]) == 0 || !bytes.Equal(pair[0], pair[1]) {
			t.Errorf("%s = %x; the Java client sends %x", name, pair[0], pair[1])
		}
	}
	t.Logf("Java: ttl=%x acl=%x visibility=%x authorizations=%x", java.TTL, java.ACL, java.Visibility, java.Authorizations)
}
