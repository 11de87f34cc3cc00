package hbasetest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/region"
	"github.com/go-hbase/hbase/sasl"
)

func TestSecurePrivacyAES(t *testing.T) {
	needsJVM(t)
	c := StartT(t, Options{Secure: true, Protection: ProtectionPrivacy, AES: true, Logger: testLogger(t)})
	ctx := testContext(t)

	if c.ServerPrincipal != "hbase/localhost@EXAMPLE.COM" {
		t.Errorf("ServerPrincipal = %q", c.ServerPrincipal)
	}
	if !strings.HasSuffix(c.ClientPrincipal, "@EXAMPLE.COM") {
		t.Errorf("ClientPrincipal = %q", c.ClientPrincipal)
	}
	conf, err := os.ReadFile(c.KRB5Conf)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(conf, []byte("EXAMPLE.COM")) {
		t.Errorf("krb5.conf does not name the realm:\n%s", conf)
	}
	if kt, err := os.Stat(c.Keytab); err != nil || kt.Size() == 0 {
		t.Fatalf("keytab %s: %v", c.Keytab, err)
	}

	if !strings.HasPrefix(c.KRB5Conf, c.Dir) || !strings.HasPrefix(c.Keytab, c.Dir) {
		t.Errorf("credentials outside the cluster directory %s: %s %s", c.Dir, c.KRB5Conf, c.Keytab)
	}

	// The region server really demands Kerberos: a SIMPLE preamble is refused.
	st := mustStatus(t, c)
	conn, err := net.DialTimeout("tcp", st.RegionServers[0].Addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("HBas\x00\x50")); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	reply, _ := io.ReadAll(conn)
	if !bytes.Contains(reply, []byte("Authentication is required")) {
		t.Errorf("SIMPLE preamble to a secure server: reply %q, want an authentication error", reply)
	}

	// The launcher's data connection runs as the client principal over privacy + AES.
	if err := c.CreateTable(ctx, "sec", []string{"f"}, [][]byte{{0x80}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, "sec", []byte{0xff, 0}, []byte("f"), []byte("q"), []byte("secret")); err != nil {
		t.Fatal(err)
	}
	cells, err := c.Get(ctx, "sec", []byte{0xff, 0})
	if err != nil || len(cells) != 1 || string(cells[0].Value) != "secret" {
		t.Fatalf("get: %+v, %v", cells, err)
	}
	out, err := c.JavaSmoke(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(out)
}

// TestSecureSeveralProtections starts one cluster that offers every QoP and shows that the
// Go handshaker gets each protection it asks for from the same region server, and that data
// written over each layer is what the Java client (asking for the strongest, privacy + AES)
// reads. Client and server must agree on the layer for a single call to succeed, so the
// round trips check the server's side of the negotiation too.
func TestSecureSeveralProtections(t *testing.T) {
	needsJVM(t)
	c := StartT(t, Options{Secure: true, Protection: "authentication, integrity,Privacy", AES: true, Logger: testLogger(t)})
	ctx := testContext(t)
	if c.Protection != "authentication,integrity,privacy" {
		t.Errorf("Cluster.Protection = %q, want the canonical list", c.Protection)
	}
	if err := c.CreateTable(ctx, "qops", []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	rg := mustRegions(t, c, "qops", 1)[0]
	creds, err := sasl.KeytabCredentials(c.ClientPrincipal, c.Keytab, c.KRB5Conf)
	if err != nil {
		t.Fatal(err)
	}
	defer creds.Close()

	for _, tc := range []struct {
		name  string
		cfg   []sasl.Option
		layer string
	}{
		{"authentication", []sasl.Option{sasl.WithProtection(sasl.Authentication)}, "none"},
		{"integrity", []sasl.Option{sasl.WithProtection(sasl.Integrity)}, "gss auth-int"},
		{"privacy-gss", []sasl.Option{sasl.WithProtection(sasl.Privacy), sasl.WithAES(sasl.AESOff)}, "gss auth-conf"},
		{"privacy-aes", []sasl.Option{sasl.WithProtection(sasl.Privacy), sasl.WithAES(sasl.AESRequired)}, "aes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := sasl.NewHandshaker(append(tc.cfg[:len(tc.cfg):len(tc.cfg)], sasl.WithCredentials(creds))...)
			if err != nil {
				t.Fatal(err)
			}
			probe := &layerProbe{h: h}
			dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			rc, err := region.Dial(dctx, rg.Addr, region.WithService("ClientService"), region.WithHandshaker(probe))
			if err != nil {
				t.Fatalf("dial with %s: %v", tc.name, err)
			}
			defer rc.Close()
			if probe.layer != tc.layer {
				t.Fatalf("negotiated layer %q, want %q", probe.layer, tc.layer)
			}
			// A value above the 64 KiB a single GSS wrap of Java carries, and a small one.
			for i, size := range []int{16, 100 << 10} {
				row := []byte(fmt.Sprintf("%s-%d", tc.name, i))
				val := bytes.Repeat([]byte{byte('a' + i)}, size)
				goPut(t, ctx, rc, rg.Name, row, val)
				cells, err := c.Get(ctx, "qops", row)
				if err != nil || len(cells) != 1 || !bytes.Equal(cells[0].Value, val) {
					t.Fatalf("Java read of %s: %d cells, %v", row, len(cells), err)
				}
				jrow := append(row, "-java"...)
				if err := c.Put(ctx, "qops", jrow, []byte("f"), []byte("q"), val); err != nil {
					t.Fatal(err)
				}
				if got := goGet(t, ctx, rc, rg.Name, jrow); !bytes.Equal(got, val) {
					t.Fatalf("Go read of %s: %d bytes, want %d", jrow, len(got), len(val))
				}
			}
		})
	}

	// The launcher's stand-alone Java client takes the list and asks for the strongest.
	out, err := c.JavaSmoke(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(out)
}

// layerProbe records which security layer a handshake produced.
type layerProbe struct {
	h     *sasl.Handshaker
	layer string
}

func (p *layerProbe) Handshake(ctx context.Context, conn net.Conn, host string, hdr *pb.ConnectionHeader) (region.Layer, error) {
	l, err := p.h.Handshake(ctx, conn, host, hdr)
	switch l := l.(type) {
	case nil:
		p.layer = "none"
	case *cipher.CryptoAES:
		p.layer = "aes"
	case fmt.Stringer:
		// The GSS layer is unexported; its String names the QoP without the key.
		switch s := l.String(); {
		case strings.Contains(s, "auth-conf"):
			p.layer = "gss auth-conf"
		case strings.Contains(s, "auth-int"):
			p.layer = "gss auth-int"
		default:
			p.layer = s
		}
	default:
		p.layer = fmt.Sprintf("%T", l)
	}
	return l, err
}

func goPut(t *testing.T, ctx context.Context, rc *region.Client, regionName, row, val []byte) {
	t.Helper()
	put, err := hrpc.NewPut("qops", row, hrpc.Value([]byte("f"), []byte("q"), val))
	if err != nil {
		t.Fatal(err)
	}
	call := hrpcwire.Mutation(put)
	req, cells, err := call.Marshal(regionName, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Call(ctx, call.Method(), req, cells, call.NewResponse()); err != nil {
		t.Fatalf("put %s: %v", row, err)
	}
}

func goGet(t *testing.T, ctx context.Context, rc *region.Client, regionName, row []byte) []byte {
	t.Helper()
	g, err := hrpc.NewGet("qops", row)
	if err != nil {
		t.Fatal(err)
	}
	call := hrpcwire.Get(g)
	req, cells, err := call.Marshal(regionName, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp := call.NewResponse()
	respCells, err := rc.Call(ctx, call.Method(), req, cells, resp)
	if err != nil {
		t.Fatalf("get %s: %v", row, err)
	}
	res, err := hrpcwire.DecodeGet(g, resp, respCells)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 1 {
		t.Fatalf("get %s: %d cells", row, len(res.Cells))
	}
	return res.Cells[0].Value
}
