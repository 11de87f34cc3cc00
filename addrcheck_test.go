package hbase

import (
	"errors"
	"testing"

	"github.com/go-hbase/hbase/hberr"
)

// NewClient refuses addresses that cannot work, with an error wrapping ErrConfiguration that
// names the bad part, and takes every form ZooKeeper and HBase accept.
func TestNewClientChecksAddresses(t *testing.T) {
	bad := []struct {
		quorum string
		opts   []Option
		want   string
	}{
		{"", nil, `hbase: empty ZooKeeper quorum (give "host:port[,host:port...]", or WithBootstrapServers)`},
		{"  ", nil, `hbase: empty ZooKeeper quorum (give "host:port[,host:port...]", or WithBootstrapServers)`},
		{"not a host::", nil, `hbase: ZooKeeper quorum "not a host::": server "not a host::" is not host[:port] (it has more than one ':'; an IPv6 address goes in brackets, "[::1]:2181")`},
		{"not a host", nil, `hbase: ZooKeeper quorum "not a host": server "not a host" has the host "not a host", which is neither a host name nor an IP address`},
		{"zk1:2181,zk2:http", nil, `hbase: ZooKeeper quorum "zk1:2181,zk2:http": server "zk2:http" has port "http", which is not a number from 1 to 65535`},
		{"zk1:0", nil, `hbase: ZooKeeper quorum "zk1:0": server "zk1:0" has port "0", which is not a number from 1 to 65535`},
		{"zk1:70000", nil, `hbase: ZooKeeper quorum "zk1:70000": server "zk1:70000" has port "70000", which is not a number from 1 to 65535`},
		{"http://zk:2181", nil, `hbase: ZooKeeper quorum "http://zk:2181": "http://" is a URL scheme, and a quorum has none: give host:port[,host:port...][/chroot], here "zk:2181"`},
		{"127.0.0.1:", nil, `hbase: ZooKeeper quorum "127.0.0.1:": server "127.0.0.1:" has an empty port: write the port after ':' ("127.0.0.1:2181") or leave out the ':' for ZooKeeper's default 2181`},
		{"::1", nil, `hbase: ZooKeeper quorum "::1": server "::1" is an IPv6 address without brackets: write "[::1]:2181"`},
		{",", nil, `hbase: ZooKeeper quorum ",": names no server: give host:port[,host:port...][/chroot], e.g. "zk1:2181,zk2:2181"`},
		{"/hbase", nil, `hbase: ZooKeeper quorum "/hbase": names no server: give host:port[,host:port...][/chroot], e.g. "zk1:2181,zk2:2181"`},
		{"", []Option{WithBootstrapServers("rs1")}, `hbase: WithBootstrapServers: "rs1" is not host:port`},
		{"", []Option{WithBootstrapServers("rs1:16020", "rs 2:16020")}, `hbase: WithBootstrapServers: "rs 2:16020": "rs 2" is not a host name or IP address`},
		{"", []Option{WithBootstrapServers("rs1:")}, `hbase: WithBootstrapServers: "rs1:" is not host:port`},
		{"zk:2181", []Option{WithBootstrapServers("rs1:16020")}, `hbase: both a ZooKeeper quorum and WithBootstrapServers: give one (the quorum argument empty with WithBootstrapServers)`},
		{"zk:2181", []Option{WithMaxAttempts(0)}, `hbase: max attempts 0 is below 1`},
		{"zk:2181", []Option{nil}, `hbase: nil Option`},
	}
	for _, tc := range bad {
		c, err := NewClient(tc.quorum, tc.opts...)
		if err == nil {
			c.Close()
			t.Errorf("NewClient(%q) succeeded; want %q", tc.quorum, tc.want)
			continue
		}
		if err.Error() != tc.want || !errors.Is(err, hberr.ErrConfiguration) {
			t.Errorf("NewClient(%q) = %q (ErrConfiguration: %v); want %q, wrapping ErrConfiguration",
				tc.quorum, err, errors.Is(err, hberr.ErrConfiguration), tc.want)
		}
	}
	for _, q := range []string{"zk1", "zk1:2181", "zk1:2181,zk2:2182/apps", "127.0.0.1:2181", "[::1]:2181",
		" zk1:2181 , zk2 ", "zk_1.example.com.:2181", "zk1,/chroot/x"} {
		c, err := NewClient(q)
		if err != nil {
			t.Errorf("NewClient(%q) = %v; want a client", q, err)
			continue
		}
		c.Close()
	}
	c, err := NewClient("", WithBootstrapServers("rs1:16020", "[::1]:16020", "10.0.0.1:16000"))
	if err != nil {
		t.Fatalf("bootstrap servers: %v", err)
	}
	c.Close()
}
