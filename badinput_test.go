package hbase_test

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/testkit"
)

// The bad-input table (docs/errors.md): every way of getting a client's settings or a call
// wrong that a user meets, each run as a user would and checked for the error (errors.Is),
// its message, the time it takes to fail and the connections the client opens. This file
// holds the machinery and the cases that need no cluster; badinput_integration_test.go runs
// the rest against real clusters.

// badCase is one row of the table.
type badCase struct {
	name string
	// client returns hbase.NewClient's arguments; nil: the environment's ZooKeeper quorum and parent.
	client func(e *badEnv) (string, []hbase.Option)
	// call is what the user does with the client; nil: a Get of row "r" of e.table.
	call     func(ctx context.Context, c *hbase.Client, e *badEnv) error
	deadline time.Duration // of the call's context; 0: 10 s
	is       []error       // errors.Is each; nil with want "": the call must succeed
	// want is the message after normalize (addresses, durations, counts replaced), or with a
	// "re:" prefix a regular expression it must match whole.
	want  string
	fast  bool // the failure is certain: it must come in under fastLimit
	conns int  // the most connections the client may open (counted by its dialer); -1: any
}

// notSent is the pattern of the prefix of a connection's error found before the request was
// written (region.ErrNotSent: a caller reading its own response peeks at the connection
// first), which depends on who noticed the close first.
const notSent = `(region: request not sent: )?`

// fastLimit is how soon a certain failure must come, with a call deadline of 10 s.
const fastLimit = 2 * time.Second

// badEnv is where the cases run: a cluster's addresses (or none) and servers of the wrong
// kind, with the placeholders normalize puts for their addresses.
type badEnv struct {
	zk, parent string
	table      string      // a table with family "f"
	dead       string      // nothing listens
	silent     string      // accepts, never answers
	closing    string      // accepts, closes at once
	http       string      // answers like an HTTP server
	names      [][2]string // address -> placeholder, longest first
}

func newBadEnv(t *testing.T) *badEnv {
	t.Helper()
	e := &badEnv{dead: testkit.DeadAddr(t), silent: testkit.SilentListener(t), closing: testkit.ClosingListener(t).Addr,
		http: testkit.StartListener(t, func(c net.Conn) {
			c.SetDeadline(time.Now().Add(5 * time.Second))
			c.Read(make([]byte, 512))                                                //nolint:errcheck
			c.Write([]byte("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")) //nolint:errcheck
		}).Addr,
		table: "badinput"}
	e.name(e.dead, "<dead>")
	e.name(e.silent, "<silent>")
	e.name(e.closing, "<closing>")
	e.name(e.http, "<http>")
	return e
}

// name makes normalize write placeholder for addr (and for the same port on 127.0.0.1 or
// localhost).
func (e *badEnv) name(addr, placeholder string) {
	e.names = append(e.names, [2]string{addr, placeholder})
	if host, port, err := net.SplitHostPort(addr); err == nil {
		for _, h := range []string{"127.0.0.1", "localhost"} {
			if h != host {
				e.names = append(e.names, [2]string{net.JoinHostPort(h, port), placeholder})
			}
		}
	}
	slices.SortStableFunc(e.names, func(a, b [2]string) int { return len(b[0]) - len(a[0]) })
}

var (
	attemptsRE = regexp.MustCompile(`after \d+ attempts?\b( \(last)`)
	durationRE = regexp.MustCompile(`in \d+(\.\d+)?(ns|µs|ms|s)\b`)
	regionRE   = regexp.MustCompile(`[\w:]+,[^ ,]*,\d+\.[0-9a-f]{32}\.`)
	addrRE     = regexp.MustCompile(`(\d+\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+`)
)

// normalize replaces what changes from run to run in a message: the environment's addresses
// by their names, other addresses by <addr>, region names by <region>, the table by <table>,
// durations and attempt counts.
func (e *badEnv) normalize(msg string) string {
	for _, n := range e.names {
		msg = strings.ReplaceAll(msg, n[0], n[1])
	}
	msg = addrRE.ReplaceAllString(msg, "<addr>")
	msg = regionRE.ReplaceAllString(msg, "<region>")
	if e.table != "" {
		msg = strings.ReplaceAll(msg, `"`+e.table+`"`, `"<table>"`)
		msg = strings.ReplaceAll(msg, `'`+e.table+`'`, `'<table>'`)
	}
	msg = attemptsRE.ReplaceAllString(msg, "after <n> attempts$1")
	return durationRE.ReplaceAllString(msg, "in <d>")
}

// countingDialer counts the connections a client opens to the cluster's servers (region
// servers, masters, bootstrap servers, and its TLS probes; ZooKeeper's are go-zookeeper's).
type countingDialer struct{ n atomic.Int64 }

func (d *countingDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d.n.Add(1)
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

// badRow is what one case gave.
type badRow struct {
	name, msg string
	took      time.Duration
	conns     int64
}

// runBad runs the cases (at the same time when parallel) and checks them, returning the rows
// of the table in the cases' order.
func runBad(t *testing.T, e *badEnv, cases []badCase, parallel bool) []badRow {
	t.Helper()
	rows := make([]badRow, len(cases))
	t.Run("cases", func(t *testing.T) {
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				if parallel {
					t.Parallel()
				}
				rows[i] = runBadCase(t, e, tc)
			})
		}
	})
	return rows
}

func runBadCase(t *testing.T, e *badEnv, tc badCase) badRow {
	quorum, opts := e.zk, []hbase.Option{hbase.WithZNodeParent(e.parent)}
	if tc.client != nil {
		quorum, opts = tc.client(e)
	}
	var d countingDialer
	opts = append(slices.Clone(opts), hbase.WithDialer(d.dial))
	deadline := tc.deadline
	if deadline == 0 {
		deadline = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	c, err := hbase.NewClient(quorum, opts...)
	if err == nil {
		call := tc.call
		if call == nil {
			call = func(ctx context.Context, c *hbase.Client, e *badEnv) error {
				get, err := hrpc.NewGet(e.table, []byte("r"))
				if err != nil {
					return err
				}
				_, err = c.Get(ctx, get)
				return err
			}
		}
		err = call(ctx, c, e)
	}
	took := time.Since(start)
	if c != nil {
		c.Close()
	}
	row := badRow{name: tc.name, took: took, conns: d.n.Load()}
	if err == nil {
		row.msg = "(no error)"
	} else {
		row.msg = e.normalize(err.Error())
	}
	switch {
	case tc.want == "" && err != nil:
		t.Errorf("error %v; want none", err)
	case tc.want == "":
	case err == nil:
		t.Errorf("no error; want %q", tc.want)
	case strings.HasPrefix(tc.want, "re:"):
		if !regexp.MustCompile(`^(?:` + tc.want[3:] + `)$`).MatchString(row.msg) {
			t.Errorf("message %q\n does not match %q", row.msg, tc.want[3:])
		}
	case row.msg != tc.want:
		t.Errorf("message %q\n          want %q", row.msg, tc.want)
	}
	for _, s := range tc.is {
		if !errors.Is(err, s) {
			t.Errorf("error %v is not %v", err, s)
		}
	}
	if tc.fast && took > fastLimit {
		t.Errorf("failed after %v; a certain failure must come in under %v", took, fastLimit)
	}
	if tc.conns >= 0 && row.conns > int64(tc.conns) {
		t.Errorf("%d connections; want at most %d", row.conns, tc.conns)
	}
	checkErrorsDoc(t, tc, row)
	return row
}

// badTable prints rows as the markdown table of docs/errors.md.
func badTable(rows []badRow) string {
	var b strings.Builder
	b.WriteString("\n| case | error (normalized) | time to fail | connections |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | `%s` | %s | %d |\n", r.name, strings.ReplaceAll(r.msg, "|", `\|`), roundTook(r.took), r.conns)
	}
	return b.String()
}

func roundTook(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "< 1 ms"
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}

// noClusterCases are the rows that need no cluster: settings hbase.NewClient refuses, servers of
// the wrong kind (listeners of this test), and calls refused before anything is sent.
func noClusterCases() []badCase {
	get := func(table, row string) func(context.Context, *hbase.Client, *badEnv) error {
		return func(ctx context.Context, c *hbase.Client, e *badEnv) error {
			g, err := hrpc.NewGet(table, []byte(row))
			if err != nil {
				return err
			}
			_, err = c.Get(ctx, g)
			return err
		}
	}
	return []badCase{
		{name: "garbage ZooKeeper quorum", client: func(*badEnv) (string, []hbase.Option) { return "not a host::", nil },
			is: []error{hberr.ErrConfiguration}, fast: true,
			want: `hbase: ZooKeeper quorum "not a host::": server "not a host::" is not host[:port] (it has more than one ':'; an IPv6 address goes in brackets, "<addr>")`},
		{name: "empty quorum, no bootstrap servers", client: func(*badEnv) (string, []hbase.Option) { return "", nil },
			is: []error{hberr.ErrConfiguration}, fast: true,
			want: `hbase: empty ZooKeeper quorum (give "host:port[,host:port...]", or WithBootstrapServers)`},
		{name: "bootstrap server without a port", client: func(*badEnv) (string, []hbase.Option) {
			return "", []hbase.Option{hbase.WithBootstrapServers("rs1")}
		}, is: []error{hberr.ErrConfiguration}, fast: true,
			want: `hbase: WithBootstrapServers: "rs1" is not host:port`},
		{name: "ZooKeeper quorum with a URL scheme", client: func(*badEnv) (string, []hbase.Option) { return "http://zk:2181", nil },
			is: []error{hberr.ErrConfiguration}, fast: true, want: `hbase: ZooKeeper quorum "http://zk:2181": "http://" is a URL scheme, and a quorum has none: give host:port[,host:port...][/chroot], here "zk:2181"`},
		{name: "ZooKeeper quorum with an empty port", client: func(*badEnv) (string, []hbase.Option) { return "127.0.0.1:", nil },
			is: []error{hberr.ErrConfiguration}, fast: true, want: `hbase: ZooKeeper quorum "127.0.0.1:": server "127.0.0.1:" has an empty port: write the port after ':' ("<addr>") or leave out the ':' for ZooKeeper's default 2181`},
		{name: "silent ZooKeeper, WithNoRetries", client: func(e *badEnv) (string, []hbase.Option) {
			return e.silent, []hbase.Option{hbase.WithNoRetries()}
		}, call: get("t", "r"), is: []error{hberr.ErrAttemptsExhausted, hberr.ErrConnection}, fast: true, want: `hbase: Get "t"/"r": attempts exhausted after 1 attempt: locating hbase:meta: zk: ZooKeeper unreachable (<silent>): no ZooKeeper answer in <d> from <silent>`},
		{name: "silent ZooKeeper, WithMaxAttempts(2)", client: func(e *badEnv) (string, []hbase.Option) {
			return e.silent, []hbase.Option{hbase.WithMaxAttempts(2)}
		}, call: get("t", "r"), is: []error{hberr.ErrAttemptsExhausted, hberr.ErrConnection}, want: `hbase: Get "t"/"r": attempts exhausted after 2 attempts: locating hbase:meta: zk: ZooKeeper unreachable (<silent>): no ZooKeeper answer in <d> from <silent>`},
		{name: "HTTP server as ZooKeeper (it answers 400)", client: func(e *badEnv) (string, []hbase.Option) {
			return e.http, nil
		}, call: get("t", "r"), is: []error{hberr.ErrConfiguration}, fast: true, want: `hbase: Get "t"/"r": locating hbase:meta: zk: <http> is not a ZooKeeper server: it answered ZooKeeper's connect request with "HTTP/1.1 400 Bad Request\r\nConnec"... (is the port ZooKeeper's client port, 2181 by default?)`},
		{name: "Ping, unreachable ZooKeeper", client: func(e *badEnv) (string, []hbase.Option) { return e.dead, nil },
			call: func(ctx context.Context, c *hbase.Client, _ *badEnv) error { return c.Ping(ctx) },
			is:   []error{hberr.ErrConnection}, fast: true, want: `hbase: Ping: locating hbase:meta: zk: ZooKeeper unreachable (<dead>): dial tcp <dead>: connect: connection refused`},
		{name: "Ping, HTTP server as ZooKeeper", client: func(e *badEnv) (string, []hbase.Option) { return e.http, nil },
			call: func(ctx context.Context, c *hbase.Client, _ *badEnv) error { return c.Ping(ctx) },
			is:   []error{hberr.ErrConfiguration}, fast: true, want: `hbase: Ping: locating hbase:meta: zk: <http> is not a ZooKeeper server: it answered ZooKeeper's connect request with "HTTP/1.1 400 Bad Request\r\nConnec"... (is the port ZooKeeper's client port, 2181 by default?)`},
		{name: "unreachable ZooKeeper, WithNoRetries", client: func(e *badEnv) (string, []hbase.Option) {
			return e.dead, []hbase.Option{hbase.WithNoRetries()}
		}, call: get("t", "r"), is: []error{hberr.ErrAttemptsExhausted, hberr.ErrConnection}, fast: true,
			want: `hbase: Get "t"/"r": attempts exhausted after 1 attempt: locating hbase:meta: zk: ZooKeeper unreachable (<dead>): dial tcp <dead>: connect: connection refused`},
		{name: "unreachable ZooKeeper, retried until a 2 s deadline", client: func(e *badEnv) (string, []hbase.Option) {
			return e.dead, nil
		}, call: get("t", "r"), deadline: 2 * time.Second, is: []error{context.DeadlineExceeded, hberr.ErrConnection},
			want: `hbase: Get "t"/"r": context deadline exceeded after <n> attempts (last: locating hbase:meta: zk: ZooKeeper unreachable (<dead>): dial tcp <dead>: connect: connection refused)`},
		{name: "unreachable bootstrap server, WithNoRetries", client: func(e *badEnv) (string, []hbase.Option) {
			return "", []hbase.Option{hbase.WithBootstrapServers(e.dead), hbase.WithNoRetries()}
		}, call: get("t", "r"), is: []error{hberr.ErrAttemptsExhausted, hberr.ErrBootstrapUnreachable}, fast: true, conns: 1,
			want: `hbase: Get "t"/"r": attempts exhausted after 1 attempt: locating hbase:meta: no bootstrap server answered (<dead>): <dead>: region: dial <dead>: dial tcp <dead>: connect: connection refused`},
		{name: "unreachable bootstrap server, retried until a 2 s deadline", client: func(e *badEnv) (string, []hbase.Option) {
			return "", []hbase.Option{hbase.WithBootstrapServers(e.dead)}
		}, call: get("t", "r"), deadline: 2 * time.Second, is: []error{context.DeadlineExceeded, hberr.ErrBootstrapUnreachable}, conns: 8,
			want: `hbase: Get "t"/"r": context deadline exceeded after <n> attempts (last: locating hbase:meta: no bootstrap server answered (<dead>): <dead>: region: dial <dead>: dial tcp <dead>: connect: connection refused)`},
		{name: "silent bootstrap server, 2 s deadline", client: func(e *badEnv) (string, []hbase.Option) {
			return "", []hbase.Option{hbase.WithBootstrapServers(e.silent)}
		}, call: get("t", "r"), deadline: 2 * time.Second, is: []error{context.DeadlineExceeded, hberr.ErrBootstrapUnreachable}, conns: 1,
			want: `hbase: Get "t"/"r": context deadline exceeded (last: no bootstrap server answered (<silent>): <silent>: no answer in <d>)`},
		{name: "bootstrap server that closes every connection", client: func(e *badEnv) (string, []hbase.Option) {
			return "", []hbase.Option{hbase.WithBootstrapServers(e.closing)}
		}, call: get("t", "r"), is: []error{hberr.ErrBootstrapUnreachable, hberr.ErrConfiguration}, fast: true, conns: 4,
			want: `re:hbase: Get "t"/"r": locating hbase:meta: no bootstrap server answered \(<closing>\): <closing>: ` + notSent + `connection failed \(<closing>\): server closed the connection before answering anything \(.*\) \(twice on a new connection: it is no HBase server, or the server has no connection registry: region servers serve it from HBase 2\.5, masters from 2\.3\)`},
		{name: "HTTP server as bootstrap server", client: func(e *badEnv) (string, []hbase.Option) {
			return "", []hbase.Option{hbase.WithBootstrapServers(e.http)}
		}, call: get("t", "r"), is: []error{hberr.ErrBootstrapUnreachable, hberr.ErrConfiguration}, fast: true, conns: 1,
			want: `re:hbase: Get "t"/"r": locating hbase:meta: no bootstrap server answered \(<http>\): <http>: ` + notSent + `connection failed \(<http>\): not an HBase RPC server: its first bytes were "HTTP", no HBase response \(is the port a master's or region server's RPC port\?\)`},
		{name: "TLS client, bootstrap server that closes every connection", client: func(e *badEnv) (string, []hbase.Option) {
			return "", []hbase.Option{hbase.WithBootstrapServers(e.closing), hbase.WithTLS(&tls.Config{})}
		}, call: get("t", "r"), is: []error{hberr.ErrBootstrapUnreachable, hberr.ErrTLS, hberr.ErrConfiguration}, fast: true, conns: 1,
			want: `re:hbase: Get "t"/"r": locating hbase:meta: no bootstrap server answered \(<closing>\): <closing>: region: dial <closing>: TLS handshake failed: .* \(the server closed the connection without answering the TLS hello: it does not speak TLS, or the port is not an HBase RPC port\)`},
		{name: "nil request", call: func(ctx context.Context, c *hbase.Client, _ *badEnv) error {
			_, err := c.Get(ctx, nil)
			return err
		}, is: []error{hberr.ErrBadRequest}, fast: true, conns: 0, want: `hbase: Get ""/"": bad request: nil Get`},
		{name: "empty row", call: get("t", ""), is: []error{hberr.ErrBadRequest}, fast: true, conns: 0,
			want: `hrpc: bad request: nil or empty row`},
		{name: "row of 32768 bytes", call: get("t", strings.Repeat("r", 32768)), is: []error{hberr.ErrBadRequest}, fast: true, conns: 0,
			want: `hrpc: bad request: row of 32768 bytes is longer than 32767`},
		{name: "cancelled context", call: func(ctx context.Context, c *hbase.Client, e *badEnv) error {
			ctx, cancel := context.WithCancel(ctx)
			cancel()
			return get("t", "r")(ctx, c, e)
		}, is: []error{context.Canceled}, fast: true, conns: 0, want: `hbase: Get "t"/"r": context canceled`},
		{name: "use after Close", call: func(ctx context.Context, c *hbase.Client, e *badEnv) error {
			c.Close()
			return get("t", "r")(ctx, c, e)
		}, is: []error{hberr.ErrClosed}, fast: true, conns: 0, want: `hbase: Get "t"/"r": client closed`},
		{name: "Ping after Close", call: func(ctx context.Context, c *hbase.Client, e *badEnv) error {
			c.Close()
			return c.Ping(ctx)
		}, is: []error{hberr.ErrClosed}, fast: true, conns: 0, want: `hbase: Ping: client closed`},
	}
}

// The rows that need no cluster keep their exact messages: the client refuses bad settings,
// unreachable and wrong-kind servers, and calls it cannot send, as docs/errors.md says. The
// ZooKeeper quorum of the calls that reach none is a port nothing listens on.
func TestBadInputNoCluster(t *testing.T) {
	e := newBadEnv(t)
	e.zk, e.parent, e.table = e.dead, "/hbase", ""
	t.Log(badTable(runBad(t, e, noClusterCases(), true)))
}
