package engine

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/go-hbase/hbase/zk"
)

// checkQuorum checks a ZooKeeper connect string as NewClient takes it, as ZooKeeper reads it
// (zk.ParseQuorum), so that a quorum that cannot work fails NewClient instead of every later
// call. The error wraps ErrConfiguration and says what to write instead.
func checkQuorum(quorum string) error {
	if strings.TrimSpace(quorum) == "" {
		return misconfigured{fmt.Errorf("hbase: empty ZooKeeper quorum (give \"host:port[,host:port...]\", or WithBootstrapServers)")}
	}
	if _, _, err := zk.ParseQuorum(quorum); err != nil {
		if qe, ok := errors.AsType[*zk.QuorumError](err); ok {
			return misconfigured{fmt.Errorf("hbase: ZooKeeper quorum %q: %s", qe.Quorum, qe.Reason)}
		}
		return misconfigured{fmt.Errorf("hbase: %w", err)}
	}
	return nil
}

// CheckServer checks one "host:port" (the port may be left out when !needPort).
func CheckServer(s string, needPort bool) error {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		if needPort || strings.Contains(s, ":") {
			return fmt.Errorf("%q is not host:port", s)
		}
		host, port = s, ""
	}
	if !validHostName(host) {
		if host == s {
			return fmt.Errorf("%q is not a host name or IP address", host)
		}
		return fmt.Errorf("%q: %q is not a host name or IP address", s, host)
	}
	if port == "" {
		if needPort {
			return fmt.Errorf("%q is not host:port", s)
		}
		return nil
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return fmt.Errorf("%q: port %q is not a number from 1 to 65535", s, port)
	}
	return nil
}

// validHostName reports whether h can name a host: an IP address, or a DNS name made of
// letters, digits, '-', '_' and dots, no label empty but a final one.
func validHostName(h string) bool {
	if net.ParseIP(h) != nil {
		return true
	}
	if h == "" || len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(strings.TrimSuffix(h, "."), ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for j := 0; j < len(label); j++ {
			c := label[j]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
