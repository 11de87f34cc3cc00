package sasl

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/stretchr/testify/require"

	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/pb"
	"github.com/go-hbase/hbase/region"
)

// The real-cluster tests start one mini cluster per server setting, one after another (never
// two JVMs at once). They run only with GOHBASE_SECURE_CLUSTER=1 so that a plain
// `go test ./...` does not start JVMs beside the root package's shared cluster.
func secureClusterTest(t *testing.T) {
	t.Helper()
	if testing.Short() || os.Getenv("GOHBASE_SECURE_CLUSTER") != "1" {
		t.Skip("real secure cluster test: set GOHBASE_SECURE_CLUSTER=1")
	}
}

type clientCase struct {
	name      string
	cfg       Config
	wantLayer string // "aes", "gss-seal", "gss-int", "none"
	wantErr   error
	contains  string
}

func TestRealCluster(t *testing.T) {
	secureClusterTest(t)
	privacyAES := []clientCase{
		{name: "privacy+aes", cfg: Config{Protection: Privacy}, wantLayer: "aes"},
		{name: "privacy+gss", cfg: Config{Protection: Privacy, AES: AESOff}, wantLayer: "gss-seal"},
		{name: "integrity-upgraded", cfg: Config{Protection: Integrity}, wantLayer: "aes"},
	}
	privacyNoAES := []clientCase{
		{name: "privacy+gss", cfg: Config{Protection: Privacy, AES: AESOff}, wantLayer: "gss-seal"},
		{name: "aes-required", cfg: Config{Protection: Privacy}, wantErr: ErrDowngrade, contains: "no ConnectionHeaderResponse"},
		{name: "aes-preferred", cfg: Config{Protection: Privacy, AES: AESPreferred, AESWait: 500 * time.Millisecond}, wantLayer: "gss-seal"},
	}
	integrity := []clientCase{
		{name: "integrity", cfg: Config{Protection: Integrity}, wantLayer: "gss-int"},
		{name: "privacy-refused", cfg: Config{Protection: Privacy}, wantErr: ErrDowngrade, contains: "server offers only auth-int"},
	}
	authentication := []clientCase{
		{name: "authentication", cfg: Config{Protection: Authentication}, wantLayer: "none"},
		{name: "privacy-refused", cfg: Config{Protection: Privacy}, wantErr: ErrDowngrade},
	}
	plain := []clientCase{
		{name: "privacy-refuses-simple", cfg: Config{Protection: Privacy}, wantErr: ErrDowngrade, contains: "SWITCH_TO_SIMPLE_AUTH"},
		{name: "auth-refuses-simple", cfg: Config{Protection: Authentication}, wantErr: ErrDowngrade, contains: "SWITCH_TO_SIMPLE_AUTH"},
		{name: "explicit-fallback", cfg: Config{Protection: Authentication, AllowFallbackToSimple: true}, wantLayer: "none"},
	}
	for _, c := range []struct {
		name  string
		opts  hbasetest.Options
		cases []clientCase
	}{
		{"privacy-aes", hbasetest.Options{Secure: true, Protection: "privacy", AES: true}, privacyAES},
		{"privacy", hbasetest.Options{Secure: true, Protection: "privacy"}, privacyNoAES},
		{"integrity", hbasetest.Options{Secure: true, Protection: "integrity"}, integrity},
		{"authentication", hbasetest.Options{Secure: true, Protection: "authentication"}, authentication},
		{"plain", hbasetest.Options{}, plain},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := hbasetest.StartT(t, c.opts)
			defer cl.Stop()
			runClusterCases(t, cl, c.cases)
			if c.opts.Secure && c.opts.AES {
				runKerberosErrorCases(t, cl)
			}
		})
	}
}

func runClusterCases(t *testing.T, cl *hbasetest.Cluster, cases []clientCase) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	table := "sasl_it"
	require.NoError(t, cl.CreateTable(ctx, table, []string{"f"}, nil))
	regions, err := cl.Regions(ctx, table)
	require.NoError(t, err)
	require.Len(t, regions, 1)
	rg := regions[0]

	var creds *Credentials
	if cl.Keytab != "" {
		creds, err = KeytabCredentials(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)
		require.NoError(t, err)
		defer creds.Close()
	} else {
		// A plain cluster has no KDC: a fake ticket is enough, the server answers the preamble
		// with SWITCH_TO_SIMPLE_AUTH before looking at it.
		creds = nil
	}
	for i, cc := range cases {
		t.Run(cc.name, func(t *testing.T) {
			cfg := cc.cfg
			cfg.Credentials = creds
			h, err := NewHandshaker(cfg)
			require.NoError(t, err)
			if creds == nil {
				h.tickets = newFakeKDC()
			}
			var layerKind string
			probe := &layerProbe{h: h, kind: &layerKind}
			dctx, dcancel := context.WithTimeout(ctx, 20*time.Second)
			defer dcancel()
			rc, err := region.Dial(dctx, rg.Addr, region.Config{Service: "ClientService", Handshaker: probe})
			if cc.wantErr != nil {
				require.ErrorIs(t, err, cc.wantErr)
				if cc.contains != "" {
					require.ErrorContains(t, err, cc.contains)
				}
				return
			}
			require.NoError(t, err)
			defer rc.Close()
			require.Equal(t, cc.wantLayer, layerKind)

			// Values larger than one wrap (64 KiB) and small ones, written by us, read by Java
			// and by us; then written by Java and read by us.
			for j, size := range []int{10, 4 << 10, 200 << 10} {
				row := []byte(fmt.Sprintf("go-%d-%d", i, j))
				val := bytes.Repeat([]byte{byte('a' + j)}, size)
				put, err := hrpc.NewPut([]byte(table), row, hrpc.Value([]byte("f"), []byte("q"), val))
				require.NoError(t, err)
				callRegion(t, ctx, rc, rg.Name, "Mutate", put)
				cells, err := cl.Get(ctx, table, row)
				require.NoError(t, err)
				require.Len(t, cells, 1)
				require.Equal(t, val, cells[0].Value, "Java reads what we wrote")
				got := getValue(t, ctx, rc, table, rg.Name, row)
				require.Equal(t, val, got)

				jrow := []byte(fmt.Sprintf("java-%d-%d", i, j))
				require.NoError(t, cl.Put(ctx, table, jrow, []byte("f"), []byte("q"), val))
				require.Equal(t, val, getValue(t, ctx, rc, table, rg.Name, jrow), "we read what Java wrote")
			}
		})
	}
}

// layerProbe records which layer the handshake produced.
type layerProbe struct {
	h    *Handshaker
	kind *string
}

func (p *layerProbe) Handshake(ctx context.Context, conn net.Conn, host string, hdr *pb.ConnectionHeader) (region.Layer, error) {
	l, err := p.h.Handshake(ctx, conn, host, hdr)
	switch l := l.(type) {
	case nil:
		*p.kind = "none"
	case *cipher.CryptoAES:
		*p.kind = "aes"
	case *gssLayer:
		if l.seal {
			*p.kind = "gss-seal"
		} else {
			*p.kind = "gss-int"
		}
	default:
		*p.kind = fmt.Sprintf("%T", l)
	}
	return l, err
}

func callRegion(t *testing.T, ctx context.Context, rc *region.Client, regionName []byte, method string, c hrpc.Call) []byte {
	t.Helper()
	req, cells, err := c.Marshal(regionName, nil)
	require.NoError(t, err)
	resp := c.NewResponse()
	respCells, err := rc.Call(ctx, method, req, cells, resp)
	require.NoError(t, err)
	return respCells
}

func getValue(t *testing.T, ctx context.Context, rc *region.Client, table string, regionName, row []byte) []byte {
	t.Helper()
	g, err := hrpc.NewGet([]byte(table), row)
	require.NoError(t, err)
	req, cells, err := g.Marshal(regionName, nil)
	require.NoError(t, err)
	resp := g.NewResponse()
	respCells, err := rc.Call(ctx, "Get", req, cells, resp)
	require.NoError(t, err)
	res, err := g.Decode(resp, respCells)
	require.NoError(t, err)
	require.Len(t, res.Cells, 1)
	return res.Cells[0].Value
}

// runKerberosErrorCases checks that each credential failure against the real KDC is its own
// error, bounded in time.
func runKerberosErrorCases(t *testing.T, cl *hbasetest.Cluster) {
	regions, err := cl.Regions(context.Background(), "sasl_it")
	require.NoError(t, err)
	addr := regions[0].Addr
	dial := func(t *testing.T, creds *Credentials) error {
		t.Helper()
		defer creds.Close()
		h, err := NewHandshaker(Config{Credentials: creds})
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		start := time.Now()
		rc, err := region.Dial(ctx, addr, region.Config{Service: "ClientService", Handshaker: h})
		if err == nil {
			rc.Close()
		}
		require.Less(t, time.Since(start), 15*time.Second)
		return err
	}
	t.Run("unknown-principal", func(t *testing.T) {
		creds, err := PasswordCredentials("nobody@EXAMPLE.COM", "whatever", cl.KRB5Conf)
		require.NoError(t, err)
		require.ErrorIs(t, dial(t, creds), ErrPrincipalUnknown)
	})
	t.Run("wrong-password", func(t *testing.T) {
		creds, err := PasswordCredentials(cl.ClientPrincipal, "not-the-password", cl.KRB5Conf)
		require.NoError(t, err)
		err = dial(t, creds)
		require.ErrorIs(t, err, ErrBadCredentials)
		require.NotContains(t, err.Error(), "not-the-password")
	})
	t.Run("wrong-keytab", func(t *testing.T) {
		// A keytab for the right principal with keys from another password.
		kt := keytab.New()
		user, realm, _ := strings.Cut(cl.ClientPrincipal, "@")
		for _, et := range []int32{17, 18} {
			require.NoError(t, kt.AddEntry(user, realm, "stale password", time.Now(), 1, et))
		}
		b, err := kt.Marshal()
		require.NoError(t, err)
		path := t.TempDir() + "/wrong.keytab"
		require.NoError(t, os.WriteFile(path, b, 0o600))
		creds, err := KeytabCredentials(cl.ClientPrincipal, path, cl.KRB5Conf)
		require.NoError(t, err)
		require.ErrorIs(t, dial(t, creds), ErrBadCredentials)
	})
	t.Run("keytab-of-unknown-principal", func(t *testing.T) {
		creds, err := KeytabCredentials("someoneelse@EXAMPLE.COM", cl.Keytab, cl.KRB5Conf)
		require.NoError(t, err)
		require.ErrorIs(t, dial(t, creds), ErrPrincipalUnknown)
	})
	t.Run("kdc-down", func(t *testing.T) {
		conf, err := os.ReadFile(cl.KRB5Conf)
		require.NoError(t, err)
		dead := regexp.MustCompile(`(kdc\s*=\s*[^:\s]+):\d+`).ReplaceAll(conf, []byte("${1}:1"))
		require.NotEqual(t, string(conf), string(dead), "krb5.conf has no kdc = host:port line")
		path := t.TempDir() + "/krb5.conf"
		require.NoError(t, os.WriteFile(path, dead, 0o600))
		creds, err := KeytabCredentials(cl.ClientPrincipal, cl.Keytab, path)
		require.NoError(t, err)
		require.ErrorIs(t, dial(t, creds), ErrKDCUnreachable)
	})
	t.Run("wrong-service-principal", func(t *testing.T) {
		creds, err := KeytabCredentials(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)
		require.NoError(t, err)
		defer creds.Close()
		h, err := NewHandshaker(Config{Credentials: creds, ServicePrincipal: "nosuchservice/_HOST"})
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		_, err = region.Dial(ctx, addr, region.Config{Service: "ClientService", Handshaker: h})
		require.ErrorIs(t, err, ErrPrincipalUnknown)
	})
	runCCacheAndSkewCases(t, cl, regions[0])
}
