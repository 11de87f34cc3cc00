package hbasetest

import (
	"bytes"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

func TestSecurePrivacyAES(t *testing.T) {
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
