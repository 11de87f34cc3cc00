package zk

import (
	"cmp"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-hbase/hbase/hberr"
)

// DefaultPort is ZooKeeper's client port, the port of a server the quorum names without one.
const DefaultPort = 2181

// maxServers bounds the servers of one quorum: ZooKeeper's server ids (myid) run from 1 to
// 255, and go-zookeeper resolves every server it is given before it connects to one.
const maxServers = 255

// QuorumError is a ZooKeeper connect string that cannot work. It matches
// hberr.ErrConfiguration: no retry helps, the setting must change.
type QuorumError struct {
	Quorum string // the connect string as given
	Reason string // what is wrong with it and how to fix it
}

func (e *QuorumError) Error() string {
	return fmt.Sprintf("zk: ZooKeeper quorum %s: %s", quote(e.Quorum), e.Reason)
}

// Is matches hberr.ErrConfiguration.
func (e *QuorumError) Is(target error) bool { return target == hberr.ErrConfiguration }

// ParseQuorum parses a ZooKeeper connect string as ZooKeeper's own client does: servers
// separated by commas (white space around each and empty ones ignored), each host[:port] with
// the port DefaultPort when left out and an IPv6 address in brackets ("[::1]:2181"), then
// optionally a chroot, from the first '/' on ("zk1:2181,zk2:2181/apps"; "/" alone is no
// chroot). It returns the servers as host:port and the chroot ("" or a znode path such as
// "/apps").
//
// It is stricter than ZooKeeper where ZooKeeper's leniency hides a mistake: it refuses a URL
// scheme ("http://zk:2181", which ZooKeeper reads as the host "http" and the chroot
// "//zk:2181"), an empty port ("zk:", which ZooKeeper takes as 2181), a port that is not a
// number from 1 to 65535, a host that is neither a host name nor an IP address, more than 255
// servers, and a chroot that is not a valid znode path. Its errors are *QuorumError, saying
// what is wrong and how to write it.
func ParseQuorum(quorum string) (servers []string, chroot string, err error) {
	bad := func(format string, args ...any) ([]string, string, error) {
		return nil, "", &QuorumError{Quorum: quorum, Reason: fmt.Sprintf(format, args...)}
	}
	if scheme, fixed, ok := urlScheme(quorum); ok {
		return bad("%s is a URL scheme, and a quorum has none: give host:port[,host:port...][/chroot], here %s",
			quote(scheme+"://"), quote(fixed))
	}
	hosts, chroot, hasChroot := strings.Cut(quorum, "/")
	if hasChroot {
		chroot = "/" + chroot
		if chroot == "/" {
			chroot = ""
		} else if why := badZNodePath(chroot); why != "" {
			return bad("chroot %s is not a valid znode path: %s", quote(chroot), why)
		}
	}
	for s := range strings.SplitSeq(hosts, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if len(servers) == maxServers {
			return bad("more than %d servers", maxServers)
		}
		addr, why := parseServer(s)
		if why != "" {
			return bad("server %s %s", quote(s), why)
		}
		servers = append(servers, addr)
	}
	if len(servers) == 0 {
		return bad(`names no server: give host:port[,host:port...][/chroot], e.g. "zk1:2181,zk2:2181"`)
	}
	return servers, chroot, nil
}

// urlScheme finds a URL scheme before "://" at the start of quorum or of one of its servers,
// and returns it with quorum without it.
func urlScheme(quorum string) (scheme, fixed string, ok bool) {
	i := strings.Index(quorum, "://")
	if i < 0 {
		return "", "", false
	}
	start := strings.LastIndexByte(quorum[:i], ',') + 1
	scheme = strings.TrimSpace(quorum[start:i])
	if scheme == "" || strings.ContainsFunc(scheme, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')
	}) {
		return "", "", false
	}
	fixed = quorum[:start] + quorum[i+len("://"):]
	if strings.Count(fixed, "/") == 1 { // "http://zk:2181/": the URL's root, no chroot
		fixed = strings.TrimSuffix(fixed, "/")
	}
	return scheme, fixed, true
}

// parseServer parses one host[:port] of a quorum into host:port, or says what is wrong.
func parseServer(s string) (addr, why string) {
	host, port, hasPort := s, "", false
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", `opens '[' without closing it: an IPv6 address is written "[::1]:2181"`
		}
		host = s[1:end]
		switch rest := s[end+1:]; {
		case rest == "":
		case rest[0] == ':':
			port, hasPort = rest[1:], true
		default:
			return "", fmt.Sprintf(`has %s after ']': write "[%s]:%d"`, quote(rest), host, DefaultPort)
		}
		if !validIP(host) && !validHostName(host) {
			return "", fmt.Sprintf("has %s in brackets, which is neither an IP address nor a host name", quote(host))
		}
	} else {
		switch strings.Count(s, ":") {
		case 0:
		case 1:
			host, port, _ = strings.Cut(s, ":")
			hasPort = true
		default:
			if a, err := netip.ParseAddr(s); err == nil && a.Is6() {
				return "", fmt.Sprintf(`is an IPv6 address without brackets: write "[%s]:%d"`, s, DefaultPort)
			}
			return "", "is not host[:port] (it has more than one ':'; an IPv6 address goes in brackets, \"[::1]:2181\")"
		}
		if host == "" {
			return "", fmt.Sprintf("has no host: write one before the ':', e.g. %s",
				quote(net.JoinHostPort("localhost", cmp.Or(port, strconv.Itoa(DefaultPort)))))
		}
		// With at most one ':', host is no IPv6 address; an IPv4 one needs no more check.
		if _, err := netip.ParseAddr(host); err != nil && !validHostName(host) {
			return "", fmt.Sprintf("has the host %s, which is neither a host name nor an IP address", quote(host))
		}
	}
	if !hasPort {
		return net.JoinHostPort(host, strconv.Itoa(DefaultPort)), ""
	}
	if port == "" {
		return "", fmt.Sprintf("has an empty port: write the port after ':' (%s) or leave out the ':' for ZooKeeper's default %d",
			quote(net.JoinHostPort(host, strconv.Itoa(DefaultPort))), DefaultPort)
	}
	if len(port) > 5 || strings.ContainsFunc(port, func(r rune) bool { return r < '0' || r > '9' }) {
		return "", fmt.Sprintf("has port %s, which is not a number from 1 to 65535", quote(port))
	}
	if p, _ := strconv.Atoi(port); p < 1 || p > 65535 {
		return "", fmt.Sprintf("has port %s, which is not a number from 1 to 65535", quote(port))
	}
	return net.JoinHostPort(host, port), ""
}

// validIP reports whether h is an IP address, with a zone (an IPv6 address's "%eth0") of
// letters, digits, '-', '_' and '.' only: netip takes any zone, net's dialer does not.
func validIP(h string) bool {
	a, err := netip.ParseAddr(h)
	if err != nil {
		return false
	}
	return !strings.ContainsFunc(a.Zone(), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	})
}

// validHostName reports whether h can be a DNS name: letters, digits, '-' and '_' in labels
// of 1 to 63 bytes separated by dots (a final dot allowed), 253 bytes at most, and not all
// labels numeric (that would be an IPv4 address, and h is not a valid one).
func validHostName(h string) bool {
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 {
		return false
	}
	numeric := true
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			switch {
			case c >= '0' && c <= '9':
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '-', c == '_':
				numeric = false
			default:
				return false
			}
		}
	}
	return !numeric
}

// badZNodePath says why path is not a valid znode path by ZooKeeper's rules (absolute, no
// empty, "." or ".." node name, no trailing '/', no control characters, none of the code
// points ZooKeeper reserves), or returns "" when it is valid. It also refuses white space:
// valid in a znode name, but in a quorum's chroot a typo.
func badZNodePath(path string) string {
	if path == "" || path[0] != '/' {
		return "it must start with '/'"
	}
	if path == "/" {
		return ""
	}
	if !utf8.ValidString(path) {
		return "it is not valid UTF-8"
	}
	if strings.HasSuffix(path, "/") {
		return fmt.Sprintf("it ends with '/' (write %s)", quote(strings.TrimRight(path, "/")))
	}
	for name := range strings.SplitSeq(path[1:], "/") {
		switch name {
		case "":
			return fmt.Sprintf("it has an empty node name (\"//\"; write %s)", quote(collapseSlashes(path)))
		case ".", "..":
			return fmt.Sprintf("it has the node name %q: relative paths are not allowed", name)
		}
	}
	for i, r := range path {
		switch {
		case r == ' ':
			return fmt.Sprintf("it holds white space at byte %d", i)
		case r < 0x20, r >= 0x7f && r <= 0x9f:
			return fmt.Sprintf("it holds the control character %q at byte %d", r, i)
		case r >= 0xd800 && r <= 0xf8ff, r >= 0xfff0 && r <= 0xffff:
			return fmt.Sprintf("it holds %U at byte %d, a character ZooKeeper does not allow", r, i)
		}
	}
	return ""
}

func collapseSlashes(path string) string {
	for strings.Contains(path, "//") {
		path = strings.ReplaceAll(path, "//", "/")
	}
	return strings.TrimSuffix(path, "/")
}

// quote is %q of s, shortened when long: an error message must stay readable whatever the
// input.
func quote(s string) string {
	const max = 128
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:cut]), len(s))
}
