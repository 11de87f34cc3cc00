package endpointtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/testkit"
	"github.com/go-hbase/hbase/visibility"
	"google.golang.org/protobuf/proto"
)

// labelRun numbers the labels of a test run: labels cannot be deleted, and the suite's
// cluster is shared.
var labelRun atomic.Int64

func uniqueLabel(prefix string) string {
	return fmt.Sprintf("%s_%d_%d", prefix, time.Now().UnixNano()%1_000_000, labelRun.Add(1))
}

// javaLabels is what Java's VisibilityClient.listLabels returns on the same cluster.
func javaLabels(t *testing.T, regex string) []string {
	t.Helper()
	ans, err := env.Cluster(t).Command(testkit.Context(t, time.Minute), "vis-labels "+hexWord([]byte(regex)))
	if err != nil {
		t.Fatalf("Java listLabels: %v", err)
	}
	return hexWords(t, ans)
}

// javaAuths is what Java's VisibilityClient.getAuths returns for user.
func javaAuths(t *testing.T, user string) []string {
	t.Helper()
	ans, err := env.Cluster(t).Command(testkit.Context(t, time.Minute), "vis-auths "+hexWord([]byte(user)))
	if err != nil {
		t.Fatalf("Java getAuths: %v", err)
	}
	return hexWords(t, ans)
}

// cellVisibility is the mutation attribute of a visibility expression (Java's
// Mutation.setCellVisibility: the attribute VISIBILITY, a CellVisibility message).
func cellVisibility(t *testing.T, expr string) hrpc.AttributeOption {
	t.Helper()
	b, err := proto.Marshal(&pb.CellVisibility{Expression: proto.String(expr)})
	if err != nil {
		t.Fatal(err)
	}
	return hrpc.Attribute("VISIBILITY", b)
}

// qualifiersSeen reads row as c's user and returns the qualifiers it gets.
func qualifiersSeen(ctx context.Context, t *testing.T, c *hbase.Client, table string) []string {
	t.Helper()
	g, err := hrpc.NewGet(table, []byte("r"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Get(ctx, g)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	var q []string
	for _, cell := range res.Cells {
		q = append(q, string(cell.Qualifier))
	}
	return q
}

// eventually waits until what returns want (the servers' label caches follow hbase:labels
// through ZooKeeper, a moment later on the other server).
func eventually(t *testing.T, what string, want string, get func() string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := get()
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s = %q; want %q", what, got, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestVisibilityLabels(t *testing.T) {
	admin := newClient(t) // go-hbase: a superuser of the cluster
	ctx := testkit.Context(t, 2*time.Minute)
	secret, public := uniqueLabel("secret"), uniqueLabel("public")
	if err := visibility.AddLabels(ctx, admin, secret, public); err != nil {
		t.Fatalf("AddLabels: %v", err)
	}

	// The labels, as Java's VisibilityClient lists them, all and by a regex.
	all, err := visibility.ListLabels(ctx, admin, "")
	if err != nil {
		t.Fatalf("ListLabels: %v", err)
	}
	if java := javaLabels(t, ""); !slices.Equal(all, java) || !slices.Contains(all, secret) || !slices.Contains(all, public) {
		t.Fatalf("ListLabels = %q; Java lists %q; want both to hold %s and %s", all, java, secret, public)
	}
	regex := strings.SplitN(secret, "_", 2)[0] + "_.*"
	some, err := visibility.ListLabels(ctx, admin, regex)
	if err != nil {
		t.Fatalf("ListLabels(%q): %v", regex, err)
	}
	if java := javaLabels(t, regex); !slices.Equal(some, java) || !slices.Contains(some, secret) || slices.Contains(some, public) {
		t.Fatalf("ListLabels(%q) = %q; Java lists %q; want %s without %s", regex, some, java, secret, public)
	}

	// Bad input changes nothing.
	err = visibility.AddLabels(ctx, admin, secret)
	if le, ok := errors.AsType[*hberr.LabelError](err); !ok || le.Label != secret || !errors.Is(err, hberr.ErrLabelExists) {
		t.Fatalf("AddLabels of a defined label: %v; want an *hberr.LabelError naming it, hberr.ErrLabelExists", err)
	}
	t.Logf("a label defined twice: %v", err)
	bad := "bad label " + secret
	err = visibility.AddLabels(ctx, admin, bad)
	if !errors.Is(err, hberr.ErrInvalidLabel) {
		t.Fatalf("AddLabels(%q): %v; want hberr.ErrInvalidLabel", bad, err)
	}
	t.Logf("a label with a space: %v", err)
	if java := javaLabels(t, ""); !slices.Equal(java, all) {
		t.Fatalf("after the refused AddLabels Java lists %q; want %q, as before", java, all)
	}

	// Authorizations, as Java's VisibilityClient reads them.
	alice, bob := uniqueLabel("alice"), uniqueLabel("bob")
	if err := visibility.SetAuths(ctx, admin, alice, secret); err != nil {
		t.Fatalf("SetAuths: %v", err)
	}
	auths, err := visibility.Auths(ctx, admin, alice)
	if err != nil {
		t.Fatalf("Auths: %v", err)
	}
	if java := javaAuths(t, alice); !slices.Equal(auths, []string{secret}) || !slices.Equal(java, auths) {
		t.Fatalf("Auths(%s) = %q; Java gives %q; want [%s]", alice, auths, java, secret)
	}
	unknown := uniqueLabel("undefined")
	err = visibility.SetAuths(ctx, admin, alice, public, unknown)
	if le, ok := errors.AsType[*hberr.LabelError](err); !ok || le.Label != unknown || !errors.Is(err, hberr.ErrLabelNotFound) {
		t.Fatalf("SetAuths with an undefined label: %v; want an *hberr.LabelError naming %s, hberr.ErrLabelNotFound", err, unknown)
	}
	t.Logf("an undefined label: %v", err)
	if java := javaAuths(t, alice); !slices.Equal(java, []string{secret}) {
		t.Fatalf("after the refused SetAuths Java gives %q; want [%s], as before (%s not set either)", java, secret, public)
	}

	// By effect: a cell labelled secret is read by alice, not by bob.
	table := endpointTable(t, admin, []string{"f"}, nil)
	p, err := hrpc.NewPut(table, []byte("r"), hrpc.Value([]byte("f"), []byte("open"), []byte("1")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Put(ctx, p); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the Put of a labelled cell", "", func() string {
		p, err := hrpc.NewPut(table, []byte("r"), hrpc.Value([]byte("f"), []byte("hidden"), []byte("2")), cellVisibility(t, secret))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := admin.Put(ctx, p); err != nil {
			return err.Error() // the region's server may not know the label yet
		}
		return ""
	})
	asAlice, asBob := newClient(t, hbase.WithUser(alice)), newClient(t, hbase.WithUser(bob))
	eventually(t, "alice's read", "hidden,open", func() string { return strings.Join(qualifiersSeen(ctx, t, asAlice, table), ",") })
	eventually(t, "bob's read", "open", func() string { return strings.Join(qualifiersSeen(ctx, t, asBob, table), ",") })

	// ClearAuths takes it back: alice reads what bob reads.
	if err := visibility.ClearAuths(ctx, admin, alice, secret); err != nil {
		t.Fatalf("ClearAuths: %v", err)
	}
	if java := javaAuths(t, alice); len(java) != 0 {
		t.Fatalf("after ClearAuths Java gives %q; want none", java)
	}
	eventually(t, "alice's read after ClearAuths", "open", func() string { return strings.Join(qualifiersSeen(ctx, t, asAlice, table), ",") })
	err = visibility.ClearAuths(ctx, admin, alice, secret)
	if le, ok := errors.AsType[*hberr.LabelError](err); !ok || le.Label != secret || !errors.Is(err, hberr.ErrLabelNotFound) {
		t.Fatalf("ClearAuths of an authorization alice does not have: %v; want an *hberr.LabelError naming it, hberr.ErrLabelNotFound", err)
	}
}

// TestVisibilityNotSuperuser: a user who is not a superuser may not define labels.
func TestVisibilityNotSuperuser(t *testing.T) {
	c := newClient(t, hbase.WithUser(uniqueLabel("mallory")))
	ctx := testkit.Context(t, time.Minute)
	label := uniqueLabel("denied")
	err := visibility.AddLabels(ctx, c, label)
	if err == nil || !strings.Contains(err.Error(), "AccessDeniedException") {
		t.Fatalf("AddLabels as a user who is not a superuser: %v; want the server's AccessDeniedException", err)
	}
	t.Logf("AddLabels as a user who is not a superuser: %v", err)
	if slices.Contains(javaLabels(t, ""), label) {
		t.Fatalf("the refused label %s is defined", label)
	}
}
