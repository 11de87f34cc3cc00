package sasl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/go-hbase/hbase/hberr"
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/keytab"

	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
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
	cfg       []Option
	wantLayer string // "aes", "gss-seal", "gss-int", "none"
	wantErr   error
	contains  string
}

func TestRealCluster(t *testing.T) {
	secureClusterTest(t)
	privacyAES := []clientCase{
		{name: "privacy+aes", cfg: []Option{WithProtection(Privacy)}, wantLayer: "aes"},
		{name: "privacy+gss", cfg: []Option{WithProtection(Privacy), WithAES(AESOff)}, wantLayer: "gss-seal"},
		{name: "integrity-upgraded", cfg: []Option{WithProtection(Integrity)}, wantLayer: "aes"},
	}
	privacyNoAES := []clientCase{
		{name: "privacy+gss", cfg: []Option{WithProtection(Privacy), WithAES(AESOff)}, wantLayer: "gss-seal"},
		{name: "aes-required", cfg: []Option{WithProtection(Privacy)}, wantErr: hberr.ErrDowngrade, contains: "no ConnectionHeaderResponse"},
		{name: "aes-preferred", cfg: []Option{WithProtection(Privacy), WithAES(AESPreferred), WithAESWait(500 * time.Millisecond)}, wantLayer: "gss-seal"},
	}
	integrity := []clientCase{
		{name: "integrity", cfg: []Option{WithProtection(Integrity)}, wantLayer: "gss-int"},
		{name: "privacy-refused", cfg: []Option{WithProtection(Privacy)}, wantErr: hberr.ErrDowngrade, contains: "server offers only auth-int"},
	}
	authentication := []clientCase{
		{name: "authentication", cfg: []Option{WithProtection(Authentication)}, wantLayer: "none"},
		{name: "privacy-refused", cfg: []Option{WithProtection(Privacy)}, wantErr: hberr.ErrDowngrade},
	}
	plain := []clientCase{
		{name: "privacy-refuses-simple", cfg: []Option{WithProtection(Privacy)}, wantErr: hberr.ErrDowngrade, contains: "SWITCH_TO_SIMPLE_AUTH"},
		{name: "auth-refuses-simple", cfg: []Option{WithProtection(Authentication)}, wantErr: hberr.ErrDowngrade, contains: "SWITCH_TO_SIMPLE_AUTH"},
		{name: "explicit-fallback", cfg: []Option{WithProtection(Authentication), WithAllowFallbackToSimple()}, wantLayer: "none"},
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
	if err := (cl.CreateTable(ctx, table, []string{"f"}, nil)); err != nil {
		t.Fatal(err)
	}
	regions, err := cl.Regions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if len(regions) != 1 {
		t.Fatalf("len(regions) = %d; want %d", len(regions), 1)
	}
	rg := regions[0]

	var creds *Credentials
	if cl.Keytab != "" {
		creds, err = KeytabCredentials(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)
		if err != nil {
			t.Fatal(err)
		}
		defer creds.Close()
	} else {
		// A plain cluster has no KDC: a fake ticket is enough, the server answers the preamble
		// with SWITCH_TO_SIMPLE_AUTH before looking at it.
		creds = nil
	}
	for i, cc := range cases {
		t.Run(cc.name, func(t *testing.T) {
			cfg := cc.cfg
			if creds != nil {
				cfg = append(cfg[:len(cfg):len(cfg)], WithCredentials(creds))
			}
			h, err := NewHandshaker(cfg...)
			if err != nil {
				t.Fatal(err)
			}
			if creds == nil {
				h.tickets = newFakeKDC()
			}
			var layerKind string
			probe := &layerProbe{h: h, kind: &layerKind}
			dctx, dcancel := context.WithTimeout(ctx, 20*time.Second)
			defer dcancel()
			rc, err := region.Dial(dctx, rg.Addr, region.WithService("ClientService"), region.WithHandshaker(probe))
			if cc.wantErr != nil {
				if !errors.Is(err, cc.wantErr) {
					t.Fatalf("error %v; want %v", err, cc.wantErr)
				}
				if cc.contains != "" {
					if err == nil || !strings.Contains(err.Error(), cc.contains) {
						t.Fatalf("error %v; want one containing %q", err, cc.contains)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			if layerKind != cc.wantLayer {
				t.Fatalf("layerKind = %q; want %q", layerKind, cc.wantLayer)
			}

			// Values larger than one wrap (64 KiB) and small ones, written by us, read by Java
			// and by us; then written by Java and read by us.
			for j, size := range []int{10, 4 << 10, 200 << 10} {
				row := []byte(fmt.Sprintf("go-%d-%d", i, j))
				val := bytes.Repeat([]byte{byte('a' + j)}, size)
				put, err := hrpc.NewPut(table, row, hrpc.Value([]byte("f"), []byte("q"), val))
				if err != nil {
					t.Fatal(err)
				}
				callRegion(t, ctx, rc, rg.Name, "Mutate", hrpcwire.Mutation(put))
				cells, err := cl.Get(ctx, table, row)
				if err != nil {
					t.Fatal(err)
				}
				if len(cells) != 1 {
					t.Fatalf("len(cells) = %d; want %d", len(cells), 1)
				}
				if !bytes.Equal(cells[0].Value, val) {
					t.Fatalf("Java reads what we wrote: cells[0].Value = %q; want %q", cells[0].Value, val)
				}
				got := getValue(t, ctx, rc, table, rg.Name, row)
				if !bytes.Equal(got, val) {
					t.Fatalf("got = %q; want %q", got, val)
				}

				jrow := []byte(fmt.Sprintf("java-%d-%d", i, j))
				if err := cl.Put(ctx, table, jrow, []byte("f"), []byte("q"), val); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(getValue(t, ctx, rc, table, rg.Name, jrow), val) {
					t.Fatalf("we read what Java wrote: getValue(t, ctx, rc, table, rg.Name, jrow) = %q; want %q", getValue(t, ctx, rc, table, rg.Name, jrow), val)
				}
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

func callRegion(t *testing.T, ctx context.Context, rc *region.Client, regionName []byte, method string, c wire.Call) []byte {
	t.Helper()
	req, cells, err := c.Marshal(regionName, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp := c.NewResponse()
	respCells, err := rc.Call(ctx, method, req, cells, resp)
	if err != nil {
		t.Fatal(err)
	}
	return respCells
}

func getValue(t *testing.T, ctx context.Context, rc *region.Client, table string, regionName, row []byte) []byte {
	t.Helper()
	g, err := hrpc.NewGet(table, row)
	if err != nil {
		t.Fatal(err)
	}
	call := hrpcwire.Get(g)
	req, cells, err := call.Marshal(regionName, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp := call.NewResponse()
	respCells, err := rc.Call(ctx, "Get", req, cells, resp)
	if err != nil {
		t.Fatal(err)
	}
	res, err := hrpcwire.DecodeGet(g, resp, respCells)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 1 {
		t.Fatalf("len(res.Cells) = %d; want %d", len(res.Cells), 1)
	}
	return res.Cells[0].Value
}

// runKerberosErrorCases checks that each credential failure against the real KDC is its own
// error, bounded in time.
func runKerberosErrorCases(t *testing.T, cl *hbasetest.Cluster) {
	regions, err := cl.Regions(context.Background(), "sasl_it")
	if err != nil {
		t.Fatal(err)
	}
	addr := regions[0].Addr
	dial := func(t *testing.T, creds *Credentials) error {
		t.Helper()
		defer creds.Close()
		h, err := NewHandshaker(WithCredentials(creds))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		start := time.Now()
		rc, err := region.Dial(ctx, addr, region.WithService("ClientService"), region.WithHandshaker(h))
		if err == nil {
			rc.Close()
		}
		if time.Since(start) >= 15*time.Second {
			t.Fatalf("time.Since(start) = %v; want less than %v", time.Since(start), 15*time.Second)
		}
		return err
	}
	t.Run("unknown-principal", func(t *testing.T) {
		creds, err := PasswordCredentials("nobody@EXAMPLE.COM", "whatever", cl.KRB5Conf)
		if err != nil {
			t.Fatal(err)
		}
		if err := dial(t, creds); !errors.Is(err, hberr.ErrPrincipalUnknown) {
			t.Fatalf("error %v; want %v", err, hberr.ErrPrincipalUnknown)
		}
	})
	t.Run("wrong-password", func(t *testing.T) {
		creds, err := PasswordCredentials(cl.ClientPrincipal, "not-the-password", cl.KRB5Conf)
		if err != nil {
			t.Fatal(err)
		}
		err = dial(t, creds)
		if !errors.Is(err, hberr.ErrBadCredentials) {
			t.Fatalf("error %v; want %v", err, hberr.ErrBadCredentials)
		}
		if strings.Contains(err.Error(), "not-the-password") {
			t.Fatalf("err.Error() = %q; want it not to contain %q", err.Error(), "not-the-password")
		}
	})
	t.Run("wrong-keytab", func(t *testing.T) {
		// A keytab for the right principal with keys from another password.
		kt := keytab.New()
		user, realm, _ := strings.Cut(cl.ClientPrincipal, "@")
		for _, et := range []int32{17, 18} {
			if err := kt.AddEntry(user, realm, "stale password", time.Now(), 1, et); err != nil {
				t.Fatal(err)
			}
		}
		b, err := kt.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		path := t.TempDir() + "/wrong.keytab"
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		creds, err := KeytabCredentials(cl.ClientPrincipal, path, cl.KRB5Conf)
		if err != nil {
			t.Fatal(err)
		}
		if err := dial(t, creds); !errors.Is(err, hberr.ErrBadCredentials) {
			t.Fatalf("error %v; want %v", err, hberr.ErrBadCredentials)
		}
	})
	t.Run("keytab-of-unknown-principal", func(t *testing.T) {
		creds, err := KeytabCredentials("someoneelse@EXAMPLE.COM", cl.Keytab, cl.KRB5Conf)
		if err != nil {
			t.Fatal(err)
		}
		if err := dial(t, creds); !errors.Is(err, hberr.ErrPrincipalUnknown) {
			t.Fatalf("error %v; want %v", err, hberr.ErrPrincipalUnknown)
		}
	})
	t.Run("kdc-down", func(t *testing.T) {
		conf, err := os.ReadFile(cl.KRB5Conf)
		if err != nil {
			t.Fatal(err)
		}
		dead := regexp.MustCompile(`(kdc\s*=\s*[^:\s]+):\d+`).ReplaceAll(conf, []byte("${1}:1"))
		if string(dead) == string(conf) {
			t.Fatalf("krb5.conf has no kdc = host:port line: string(dead) = %q; want anything else", string(dead))
		}
		path := t.TempDir() + "/krb5.conf"
		if err := os.WriteFile(path, dead, 0o600); err != nil {
			t.Fatal(err)
		}
		creds, err := KeytabCredentials(cl.ClientPrincipal, cl.Keytab, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := dial(t, creds); !errors.Is(err, hberr.ErrKDCUnreachable) {
			t.Fatalf("error %v; want %v", err, hberr.ErrKDCUnreachable)
		}
	})
	t.Run("wrong-service-principal", func(t *testing.T) {
		creds, err := KeytabCredentials(cl.ClientPrincipal, cl.Keytab, cl.KRB5Conf)
		if err != nil {
			t.Fatal(err)
		}
		defer creds.Close()
		h, err := NewHandshaker(WithCredentials(creds), WithServicePrincipal("nosuchservice/_HOST"))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		_, err = region.Dial(ctx, addr, region.WithService("ClientService"), region.WithHandshaker(h))
		if !errors.Is(err, hberr.ErrPrincipalUnknown) {
			t.Fatalf("error %v; want %v", err, hberr.ErrPrincipalUnknown)
		}
	})
	runCCacheAndSkewCases(t, cl, regions[0])
}
