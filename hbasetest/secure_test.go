package hbasetest

import (
	"bytes"
	"os"
	"strings"
	"testing"
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
