package endpointtest

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/testkit"
)

// The endpoint suite's one cluster: two region servers, authorization on (the
// VisibilityController filters reads only then), the VisibilityController on the master and
// every region (its labels service lives on hbase:labels). AggregateImplementation and
// TokenProvider are loaded per table (endpointTable), so that a table without them shows an
// endpoint that is not loaded. The client's default user, go-hbase, is a superuser of the
// cluster (hbase.superuser): without Kerberos the servers take the user the client names.
var env = testkit.New(hbasetest.Options{
	RegionServers: 2,
	Conf: map[string]string{
		"hbase.security.authorization":     "true",
		"hbase.coprocessor.master.classes": visibilityController,
		"hbase.coprocessor.region.classes": visibilityController,
		"hbase.superuser":                  "go-hbase",
	},
})

const (
	visibilityController = "org.apache.hadoop.hbase.security.visibility.VisibilityController"
	aggregateEndpoint    = "org.apache.hadoop.hbase.coprocessor.AggregateImplementation"
	tokenProvider        = "org.apache.hadoop.hbase.security.token.TokenProvider"
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(env.Run(m))
}

// newClient returns a client of the cluster, closed when the test ends.
func newClient(t testing.TB, opts ...hbase.Option) *hbase.Client {
	t.Helper()
	cl := env.Cluster(t)
	c, err := hbase.NewClient(cl.ZKQuorum, append([]hbase.Option{hbase.WithZNodeParent(cl.ZNodeParent)}, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// endpointTable creates a table of families split at splits, loading the table coprocessors
// classes (none: a table without endpoints), and drops it when the test ends.
func endpointTable(t testing.TB, c *hbase.Client, families []string, splits []string, classes ...string) string {
	t.Helper()
	name := env.Name(t, "e")
	opts := []hrpc.TableOption{}
	for _, f := range families {
		opts = append(opts, hrpc.WithFamily(f))
	}
	for i, class := range classes {
		// HBase's table coprocessor attribute: path|class|priority|arguments (no path: the
		// servers' classpath).
		opts = append(opts, hrpc.TableAttribute(fmt.Sprintf("coprocessor$%d", i+1), "|"+class+"|1073741823|"))
	}
	desc, err := hrpc.NewTableDescriptor(name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	var keys [][]byte
	for _, s := range splits {
		keys = append(keys, []byte(s))
	}
	adm := admin.New(c)
	ctx := testkit.Context(t, 2*time.Minute)
	if err := adm.CreateTable(ctx, desc, hrpc.SplitKeys(keys...)); err != nil {
		t.Fatalf("creating %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = adm.DisableTable(ctx, name)
		_ = adm.DeleteTable(ctx, name)
	})
	return name
}

func long(v int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(v)) }

func double(v float64) []byte { return binary.BigEndian.AppendUint64(nil, math.Float64bits(v)) }

// hexWord is the launcher's word for b: hex, "-" for empty.
func hexWord(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	return hex.EncodeToString(b)
}

// hexWords decodes a launcher answer of hex words.
func hexWords(t testing.TB, ans string) []string {
	t.Helper()
	var out []string
	for _, w := range strings.Fields(ans) {
		if w == "-" {
			out = append(out, "")
			continue
		}
		b, err := hex.DecodeString(w)
		if err != nil {
			t.Fatalf("launcher answer %q: %v", ans, err)
		}
		out = append(out, string(b))
	}
	return out
}
