package hrpc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// sentAttributes is what the Mutate request of m carries as the mutation's attributes.
func sentAttributes(t *testing.T, m *mutation) map[string][]byte {
	t.Helper()
	req, _, err := (*mutationCall)(m).Marshal([]byte("region"), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string][]byte)
	for _, a := range req.(*pb.MutateRequest).GetMutation().GetAttribute() {
		if _, dup := out[a.GetName()]; dup {
			t.Fatalf("attribute %q sent twice", a.GetName())
		}
		out[a.GetName()] = a.GetValue()
	}
	return out
}

func TestCellSecurityOptions(t *testing.T) {
	f, q, v := []byte("f"), []byte("q"), []byte("v")
	put, err := NewPut("t", []byte("r"), Value(f, q, v), CellTTL(time.Second+999*time.Microsecond),
		CellACL("guest", CellRead), CellACL("@ops", CellRead|CellWrite), CellVisibility("secret|ops"),
		CellTTL(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	attrs := sentAttributes(t, &put.mutation)
	if got := attrs[wire.AttrTTL]; len(got) != 8 || binary.BigEndian.Uint64(got) != 5000 {
		t.Errorf("_ttl = %x; want 5000 ms, the later CellTTL", got)
	}
	wantACL, _ := wire.CellACLValue(nil, "guest", []string{"READ"})
	wantACL, _ = wire.CellACLValue(wantACL, "@ops", []string{"READ", "WRITE"})
	if !bytes.Equal(attrs[wire.AttrACL], wantACL) {
		t.Errorf("acl = %x; want %x", attrs[wire.AttrACL], wantACL)
	}
	wantVis, _ := wire.VisibilityValue("secret|ops")
	if !bytes.Equal(attrs[wire.AttrVisibility], wantVis) {
		t.Errorf("VISIBILITY = %x; want %x", attrs[wire.AttrVisibility], wantVis)
	}

	// The same options on Appends and Increments; visibility on Deletes.
	app, err := NewAppend("t", []byte("r"), Value(f, q, v), CellTTL(time.Minute), CellACL("guest", CellWrite))
	if err != nil {
		t.Fatal(err)
	}
	if a := sentAttributes(t, &app.mutation); len(a[wire.AttrTTL]) != 8 || len(a[wire.AttrACL]) == 0 {
		t.Errorf("Append attributes = %x", a)
	}
	inc, err := NewIncrement("t", []byte("r"), Amount(f, q, 1), CellTTL(time.Minute), CellVisibility("x"))
	if err != nil {
		t.Fatal(err)
	}
	if a := sentAttributes(t, &inc.mutation); len(a[wire.AttrTTL]) != 8 || len(a[wire.AttrVisibility]) == 0 {
		t.Errorf("Increment attributes = %x", a)
	}
	del, err := NewDelete("t", []byte("r"), CellVisibility("x"))
	if err != nil {
		t.Fatal(err)
	}
	if a := sentAttributes(t, &del.mutation); len(a[wire.AttrVisibility]) == 0 {
		t.Errorf("Delete attributes = %x", a)
	}

	// Reads: Authorizations on Gets and Scans.
	wantAuths, _ := wire.AuthorizationsValue([]string{"secret"})
	g, err := NewGet("t", []byte("r"), Authorizations("secret"))
	if err != nil {
		t.Fatal(err)
	}
	req, _, err := (*getCall)(g).Marshal([]byte("region"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := req.(*getRequestAlloc).GetGet().GetAttribute(); len(got) != 1 || got[0].GetName() != wire.AttrVisibility || !bytes.Equal(got[0].GetValue(), wantAuths) {
		t.Errorf("Get attributes = %v; want VISIBILITY=%x", got, wantAuths)
	}
	s, err := NewScan("t", Authorizations(), Authorizations("secret"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.attributes) != 1 || !bytes.Equal(s.attributes[0].GetValue(), wantAuths) {
		t.Errorf("Scan attributes = %v; want one VISIBILITY=%x", s.attributes, wantAuths)
	}
}

func TestCellSecurityBadInput(t *testing.T) {
	f := []byte("f")
	for _, tc := range []struct {
		name string
		opt  PutOption
		is   error
	}{
		{"ttl under 1ms", CellTTL(999 * time.Microsecond), hberr.ErrBadRequest},
		{"negative ttl", CellTTL(-time.Second), hberr.ErrBadRequest},
		{"no access", CellACL("guest", 0), hberr.ErrBadRequest},
		{"unknown access", CellACL("guest", 4), hberr.ErrBadRequest},
		{"no user", CellACL("", CellRead), hberr.ErrBadRequest},
		{"empty group", CellACL("@", CellRead), hberr.ErrBadRequest},
		{"bad expression", CellVisibility("a&"), hberr.ErrVisibilityExpression},
		{"empty expression", CellVisibility(""), hberr.ErrVisibilityExpression},
	} {
		_, err := NewPut("t", []byte("r"), Value(f, f, f), tc.opt)
		if !errors.Is(err, tc.is) || !errors.Is(err, hberr.ErrBadRequest) {
			t.Errorf("%s: %v; want %v", tc.name, err, tc.is)
		}
	}
	if _, err := NewGet("t", []byte("r"), Authorizations("ok", "")); !errors.Is(err, hberr.ErrVisibilityExpression) {
		t.Errorf("empty authorization label: %v", err)
	}
	if got := QuoteLabel(`a "b"`); got != `"a \"b\""` {
		t.Errorf("QuoteLabel = %s", got)
	}
}
