package zk

import (
	"errors"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-hbase/hbase/hberr"
)

func TestParseQuorum(t *testing.T) {
	for _, tc := range []struct {
		quorum  string
		servers []string
		chroot  string
	}{
		{"zk1", []string{"zk1:2181"}, ""},
		{"zk1:2182", []string{"zk1:2182"}, ""},
		{" zk1:2181 , zk2 ", []string{"zk1:2181", "zk2:2181"}, ""},
		{"zk1:2181,,zk2:2181,", []string{"zk1:2181", "zk2:2181"}, ""},
		{"zk1:2181,zk2:2182/apps", []string{"zk1:2181", "zk2:2182"}, "/apps"},
		{"zk1,/chroot/x", []string{"zk1:2181"}, "/chroot/x"},
		{"zk1:2181/", []string{"zk1:2181"}, ""},
		{"127.0.0.1:2181", []string{"127.0.0.1:2181"}, ""},
		{"[::1]:2181", []string{"[::1]:2181"}, ""},
		{"[::1]", []string{"[::1]:2181"}, ""},
		{"[fe80::1%eth0]:2181", []string{"[fe80::1%eth0]:2181"}, ""},
		{"[10.0.0.1]:2181", []string{"10.0.0.1:2181"}, ""},
		{"zk_1.example.com.:2181", []string{"zk_1.example.com.:2181"}, ""},
		{"zk1:02181", []string{"zk1:02181"}, ""},
		{"zk1:65535/a/b-c_d.e", []string{"zk1:65535"}, "/a/b-c_d.e"},
	} {
		servers, chroot, err := ParseQuorum(tc.quorum)
		if err != nil || !slices.Equal(servers, tc.servers) || chroot != tc.chroot {
			t.Errorf("ParseQuorum(%q) = %q, %q, %v; want %q, %q", tc.quorum, servers, chroot, err, tc.servers, tc.chroot)
		}
	}
}

// Each refusal says what is wrong and how to write it, and matches hberr.ErrConfiguration.
func TestParseQuorumRefuses(t *testing.T) {
	long := strings.Repeat("a", 300)
	many := strings.Repeat("zk,", maxServers) + "zk"
	for _, tc := range []struct{ quorum, want string }{
		{"http://zk:2181", `zk: ZooKeeper quorum "http://zk:2181": "http://" is a URL scheme, and a quorum has none: give host:port[,host:port...][/chroot], here "zk:2181"`},
		{"zk://zk1:2181,zk2:2181/hbase", `zk: ZooKeeper quorum "zk://zk1:2181,zk2:2181/hbase": "zk://" is a URL scheme, and a quorum has none: give host:port[,host:port...][/chroot], here "zk1:2181,zk2:2181/hbase"`},
		{"zk1:2181, tcp://zk2:2181/", `zk: ZooKeeper quorum "zk1:2181, tcp://zk2:2181/": "tcp://" is a URL scheme, and a quorum has none: give host:port[,host:port...][/chroot], here "zk1:2181,zk2:2181"`},
		{"127.0.0.1:", `zk: ZooKeeper quorum "127.0.0.1:": server "127.0.0.1:" has an empty port: write the port after ':' ("127.0.0.1:2181") or leave out the ':' for ZooKeeper's default 2181`},
		{"[::1]:", `zk: ZooKeeper quorum "[::1]:": server "[::1]:" has an empty port: write the port after ':' ("[::1]:2181") or leave out the ':' for ZooKeeper's default 2181`},
		{":2181", `zk: ZooKeeper quorum ":2181": server ":2181" has no host: write one before the ':', e.g. "localhost:2181"`},
		{"zk1:2181,:", `zk: ZooKeeper quorum "zk1:2181,:": server ":" has no host: write one before the ':', e.g. "localhost:2181"`},
		{"zk1:2181,zk2:http", `zk: ZooKeeper quorum "zk1:2181,zk2:http": server "zk2:http" has port "http", which is not a number from 1 to 65535`},
		{"zk1:0", `zk: ZooKeeper quorum "zk1:0": server "zk1:0" has port "0", which is not a number from 1 to 65535`},
		{"zk1:65536", `zk: ZooKeeper quorum "zk1:65536": server "zk1:65536" has port "65536", which is not a number from 1 to 65535`},
		{"zk1:-1", `zk: ZooKeeper quorum "zk1:-1": server "zk1:-1" has port "-1", which is not a number from 1 to 65535`},
		{"zk1:+2181", `zk: ZooKeeper quorum "zk1:+2181": server "zk1:+2181" has port "+2181", which is not a number from 1 to 65535`},
		{"zk1:99999999999999999999", `zk: ZooKeeper quorum "zk1:99999999999999999999": server "zk1:99999999999999999999" has port "99999999999999999999", which is not a number from 1 to 65535`},
		{"::1", `zk: ZooKeeper quorum "::1": server "::1" is an IPv6 address without brackets: write "[::1]:2181"`},
		{"not a host::", `zk: ZooKeeper quorum "not a host::": server "not a host::" is not host[:port] (it has more than one ':'; an IPv6 address goes in brackets, "[::1]:2181")`},
		{"zk1:2181:2182", `zk: ZooKeeper quorum "zk1:2181:2182": server "zk1:2181:2182" is not host[:port] (it has more than one ':'; an IPv6 address goes in brackets, "[::1]:2181")`},
		{"[::1:2181", `zk: ZooKeeper quorum "[::1:2181": server "[::1:2181" opens '[' without closing it: an IPv6 address is written "[::1]:2181"`},
		{"[::1]2181", `zk: ZooKeeper quorum "[::1]2181": server "[::1]2181" has "2181" after ']': write "[::1]:2181"`},
		{"[not an ip]:2181", `zk: ZooKeeper quorum "[not an ip]:2181": server "[not an ip]:2181" has "not an ip" in brackets, which is neither an IP address nor a host name`},
		{"not a host", `zk: ZooKeeper quorum "not a host": server "not a host" has the host "not a host", which is neither a host name nor an IP address`},
		{"256.1.1.1:2181", `zk: ZooKeeper quorum "256.1.1.1:2181": server "256.1.1.1:2181" has the host "256.1.1.1", which is neither a host name nor an IP address`},
		{"zk..example:2181", `zk: ZooKeeper quorum "zk..example:2181": server "zk..example:2181" has the host "zk..example", which is neither a host name nor an IP address`},
		{"zk\x00:2181", `zk: ZooKeeper quorum "zk\x00:2181": server "zk\x00:2181" has the host "zk\x00", which is neither a host name nor an IP address`},
		{"zк.example:2181", `zk: ZooKeeper quorum "zк.example:2181": server "zк.example:2181" has the host "zк.example", which is neither a host name nor an IP address`},
		{"", `zk: ZooKeeper quorum "": names no server: give host:port[,host:port...][/chroot], e.g. "zk1:2181,zk2:2181"`},
		{" , ", `zk: ZooKeeper quorum " , ": names no server: give host:port[,host:port...][/chroot], e.g. "zk1:2181,zk2:2181"`},
		{"/hbase", `zk: ZooKeeper quorum "/hbase": names no server: give host:port[,host:port...][/chroot], e.g. "zk1:2181,zk2:2181"`},
		{"zk1:2181/apps/", `zk: ZooKeeper quorum "zk1:2181/apps/": chroot "/apps/" is not a valid znode path: it ends with '/' (write "/apps")`},
		{"zk1:2181//apps", `zk: ZooKeeper quorum "zk1:2181//apps": chroot "//apps" is not a valid znode path: it has an empty node name ("//"; write "/apps")`},
		{"zk1:2181/a//b", `zk: ZooKeeper quorum "zk1:2181/a//b": chroot "/a//b" is not a valid znode path: it has an empty node name ("//"; write "/a/b")`},
		{"zk1:2181/a/../b", `zk: ZooKeeper quorum "zk1:2181/a/../b": chroot "/a/../b" is not a valid znode path: it has the node name "..": relative paths are not allowed`},
		{"zk1:2181/.", `zk: ZooKeeper quorum "zk1:2181/.": chroot "/." is not a valid znode path: it has the node name ".": relative paths are not allowed`},
		{"zk1:65535/a b/c", `zk: ZooKeeper quorum "zk1:65535/a b/c": chroot "/a b/c" is not a valid znode path: it holds white space at byte 2`},
		{"zk1/a\nb", `zk: ZooKeeper quorum "zk1/a\nb": chroot "/a\nb" is not a valid znode path: it holds the control character '\n' at byte 2`},
		{"zk1/a\x00", `zk: ZooKeeper quorum "zk1/a\x00": chroot "/a\x00" is not a valid znode path: it holds the control character '\x00' at byte 2`},
		{"zk1/a\u0085", `zk: ZooKeeper quorum "zk1/a\u0085": chroot "/a\u0085" is not a valid znode path: it holds the control character '\u0085' at byte 2`},
		{"zk1/\ue000", `zk: ZooKeeper quorum "zk1/\ue000": chroot "/\ue000" is not a valid znode path: it holds U+E000 at byte 1, a character ZooKeeper does not allow`},
		{"zk1/\xff", `zk: ZooKeeper quorum "zk1/\xff": chroot "/\xff" is not a valid znode path: it is not valid UTF-8`},
		{long + ":2181", `zk: ZooKeeper quorum "` + long[:128] + `"... (305 bytes): server "` + long[:128] + `"... (305 bytes) has the host "` + long[:128] + `"... (300 bytes), which is neither a host name nor an IP address`},
		{many, `zk: ZooKeeper quorum "` + many[:128] + `"... (767 bytes): more than 255 servers`},
	} {
		servers, chroot, err := ParseQuorum(tc.quorum)
		if err == nil {
			t.Errorf("ParseQuorum(%q) = %q, %q; want %s", tc.quorum, servers, chroot, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("ParseQuorum(%q):\n got  %s\n want %s", tc.quorum, err, tc.want)
		}
		if _, ok := errors.AsType[*QuorumError](err); !ok || !errors.Is(err, hberr.ErrConfiguration) {
			t.Errorf("ParseQuorum(%q) = %#v; want a *QuorumError matching hberr.ErrConfiguration", tc.quorum, err)
		}
		if servers != nil || chroot != "" {
			t.Errorf("ParseQuorum(%q) = %q, %q with its error; want nothing", tc.quorum, servers, chroot)
		}
	}
}

// New refuses what ParseQuorum refuses, with the same error.
func TestNewRefusesBadQuorum(t *testing.T) {
	for _, q := range []string{"http://zk:2181", "127.0.0.1:", "zk1:2181/apps/"} {
		c, err := New(q)
		if err == nil {
			c.Close()
			t.Errorf("New(%q) succeeded", q)
			continue
		}
		_, _, want := ParseQuorum(q)
		if err.Error() != want.Error() || !errors.Is(err, hberr.ErrConfiguration) {
			t.Errorf("New(%q) = %v; want %v, matching hberr.ErrConfiguration", q, err, want)
		}
	}
}

// Whatever the input, ParseQuorum does not panic; what it accepts is host:port servers that
// parse again to themselves, and a valid chroot.
func FuzzParseQuorum(f *testing.F) {
	for _, s := range []string{"zk1:2181,zk2/apps", "[::1]:2181", "http://zk:2181", "127.0.0.1:", "[", "]:", "a:1/b/../c",
		"zk1,zk2,zk3:2182/hbase/x", "[fe80::1%eth0]", ",,,", "/", "a/\x00", "zk:2181//"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, quorum string) {
		servers, chroot, err := ParseQuorum(quorum)
		if err != nil {
			if !errors.Is(err, hberr.ErrConfiguration) {
				t.Fatalf("ParseQuorum(%q) = %v; not ErrConfiguration", quorum, err)
			}
			return
		}
		if len(servers) == 0 || len(servers) > maxServers {
			t.Fatalf("ParseQuorum(%q) = %d servers", quorum, len(servers))
		}
		for _, s := range servers {
			_, port, err := net.SplitHostPort(s)
			if err != nil {
				t.Fatalf("ParseQuorum(%q): server %q: %v", quorum, s, err)
			}
			if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
				t.Fatalf("ParseQuorum(%q): server %q: port %q", quorum, s, port)
			}
		}
		if chroot != "" && badZNodePath(chroot) != "" {
			t.Fatalf("ParseQuorum(%q): chroot %q: %s", quorum, chroot, badZNodePath(chroot))
		}
		again, chroot2, err := ParseQuorum(strings.Join(servers, ",") + chroot)
		if err != nil || !slices.Equal(again, servers) || chroot2 != chroot {
			t.Fatalf("ParseQuorum(%q) = %q, %q; parsed again: %q, %q, %v", quorum, servers, chroot, again, chroot2, err)
		}
	})
}
