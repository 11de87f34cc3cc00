package main

import (
	"io"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
)

func TestPlanClusters(t *testing.T) {
	c, err := parseConfig([]string{"-local", "-compare-security"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	one := planClusters(c)
	if len(one) != 1 || one[0].Protection != "authentication,privacy" || !one[0].AES || !one[0].Secure || !one[0].TLS || len(one[0].Modes) != 4 {
		t.Errorf("multi-QoP plan %+v, want one secure AES and TLS cluster offering authentication,privacy to 4 modes", one)
	}

	c, err = parseConfig([]string{"-local", "-kerberos", "-protection", "integrity"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p := planClusters(c)
	if len(p) != 1 || !p[0].Secure || p[0].Protection != "integrity" || len(p[0].Modes) != 1 || p[0].Modes[0].Name != "" {
		t.Errorf("plain secure plan %+v", p)
	}
}

func TestWithCredentials(t *testing.T) {
	lc := &localCluster{&hbasetest.Cluster{ZKQuorum: "127.0.0.1:5", ZNodeParent: "/z", ClientPrincipal: "client@EXAMPLE.COM",
		Keytab: "/k", KRB5Conf: "/krb5.conf", ServerPrincipal: "hbase/localhost@EXAMPLE.COM"}}
	c := &config{Duration: time.Second}
	modes := []mode{{Name: modeNone, Security: securityFlags{Kerberos: true}}, {Security: securityFlags{}}}
	cc, out, err := lc.withCredentials(c, modes)
	if err != nil {
		t.Fatal(err)
	}
	if cc.ZKQuorum != "127.0.0.1:5" || cc.ZNodeParent != "/z" || c.ZKQuorum != "" {
		t.Errorf("config quorum %q znode %q (original %q)", cc.ZKQuorum, cc.ZNodeParent, c.ZKQuorum)
	}
	if s := out[0].Security; s.Principal != "client@EXAMPLE.COM" || s.Keytab != "/k" || s.KRB5Conf != "/krb5.conf" || s.ServerPrincipal != "hbase/localhost@EXAMPLE.COM" {
		t.Errorf("kerberos mode credentials %+v", s)
	}
	if out[1].Security.Principal != "" || modes[0].Security.Principal != "" {
		t.Error("credentials leaked into a SIMPLE mode or into the caller's modes")
	}
}

func TestSortResults(t *testing.T) {
	c, err := parseConfig([]string{"-local", "-compare-security", "-workload", "randomWrite,randread"}, env(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	rs := []*result{
		newResult(randRead, modeAES), newResult(randWrite, modeGSS), newResult(randWrite, modeNone),
		newResult(randRead, modeNone), newResult(randWrite, modeAES), newResult(randRead, modeGSS),
	}
	sortResults(rs, c)
	var got []string
	for _, r := range rs {
		got = append(got, r.Workload+"/"+r.Mode)
	}
	want := []string{"randomWrite/none", "randomWrite/privacy-gss", "randomWrite/privacy-aes", "randomRead/none", "randomRead/privacy-gss", "randomRead/privacy-aes"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %q, want %q", got, want)
		}
	}
}
