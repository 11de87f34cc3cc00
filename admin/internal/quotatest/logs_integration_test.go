package quotatest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// recordWord renders a record as the launcher's request-log command does (without the
// server, which the Java OnlineLogRecord does not carry).
func recordWord(r admin.SlowLogRecord) string {
	attrs := func(m map[string][]byte) string {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parts = append(parts, k+"="+word(string(m[k])))
		}
		return word(strings.Join(parts, ";"))
	}
	return fmt.Sprintf("%d,%d,%d,%d,%d,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s",
		r.Start.UnixMilli(), r.Processing.Milliseconds(), r.Queue.Milliseconds(), r.ResponseSize,
		r.BlockBytesScanned, r.FSReadTime.Milliseconds(), r.MultiGets, r.MultiMutations, r.MultiServiceCalls,
		word(r.Client), word(r.ServerClass), word(r.Method), word(r.CallDetails), word(r.Param), word(r.User),
		word(r.Region), attrs(r.ConnectionAttributes), attrs(r.RequestAttributes))
}

// calls is the number of distinct calls among recs (recordWord tells them apart; the server
// that answered aside).
func calls(recs []admin.SlowLogRecord) int {
	seen := make(map[string]bool)
	for _, r := range recs {
		seen[recordWord(r)] = true
	}
	return len(seen)
}

// javaLog is the launcher's view of the logs: request-log slow|large LIMIT and|or filters
// [servers=host:port;...].
func javaLog(t *testing.T, cl *hbasetest.Cluster, large bool, q admin.LogQuery) []string {
	t.Helper()
	kind, op := "slow", "or"
	if large {
		kind = "large"
	}
	if q.MatchAll {
		op = "and"
	}
	limit := q.Limit
	if limit == 0 {
		limit = 10 // admin.LogQuery's default; the Java Admin sends 0 as it is
	}
	line := fmt.Sprintf("request-log %s %d %s", kind, limit, op)
	for _, f := range []struct{ k, v string }{{"region", q.Region}, {"table", q.Table}, {"user", q.User}, {"client", q.Client}} {
		if f.v != "" {
			line += " " + f.k + "=" + word(f.v)
		}
	}
	if len(q.Servers) > 0 {
		line += " servers=" + word(strings.Join(q.Servers, ";"))
	}
	w := javaWords(t, cl, line, "rec")
	slices.Sort(w)
	return w
}

// checkLogMatchesJava compares SlowLogs (or LargeLogs) of q's servers (every live one when
// none) with the Java Admin's getLogEntries of the same query, as sets (the Java Admin asks
// the servers in no order).
func checkLogMatchesJava(t *testing.T, ctx context.Context, cl *hbasetest.Cluster, adm *admin.Admin, large bool, q admin.LogQuery) []admin.SlowLogRecord {
	t.Helper()
	get := adm.SlowLogs
	if large {
		get = adm.LargeLogs
	}
	for attempt := 0; ; attempt++ {
		recs, err := get(ctx, q)
		if err != nil {
			t.Fatalf("logs of %+v: %v", q, err)
		}
		var got []string
		for _, r := range recs {
			got = append(got, recordWord(r))
		}
		slices.Sort(got)
		want := javaLog(t, cl, large, q)
		if slices.Equal(got, want) {
			return recs
		}
		// A slow call of the servers' own may land between the two reads: read again.
		if attempt == 3 {
			t.Fatalf("logs of %+v =\n%s\nthe Java Admin's getLogEntries =\n%s", q, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestSlowLogOfASlowCall: a Get the server delays past the slow call threshold is in the
// slow log of its region server, found by each filter, as the Java Admin finds it; cleared,
// it is gone.
func TestSlowLogOfASlowCall(t *testing.T) {
	cl, c, adm := newAdmin(t)
	ctx := stepContext(t, 3*time.Minute)
	table := env.Table(t, []string{"f"}, nil)
	put, err := hrpc.NewPut(table, []byte("row,1"), hrpc.Value([]byte("f"), []byte("q"), []byte("v")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Put(ctx, put); err != nil {
		t.Fatal(err)
	}
	regions, err := cl.Regions(ctx, table)
	if err != nil || len(regions) != 1 {
		t.Fatalf("regions of %s: %v, %v", table, regions, err)
	}
	server := regions[0]
	if err := adm.ClearSlowLogs(ctx); err != nil {
		t.Fatal(err)
	}
	if err := cl.SlowReads(ctx, server.Server, slowCall+200*time.Millisecond, 1); err != nil {
		t.Fatal(err)
	}
	get, err := hrpc.NewGet(table, []byte("row,1"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.Get(ctx, get)
	took := time.Since(start)
	if err := cl.SlowReads(ctx, server.Server, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if took < slowCall {
		t.Fatalf("the slowed Get took %v; want over %v", took, slowCall)
	}

	byTable := admin.LogQuery{Table: table, Limit: 50}
	var recs []admin.SlowLogRecord
	eventually(t, 30*time.Second, "the slow Get in the slow log", func() bool {
		recs, err = adm.SlowLogs(ctx, byTable)
		return err == nil && len(recs) > 0
	})
	// The mini cluster's region servers share one JVM, and HBase 2.x keeps one request log
	// per JVM (NamedQueueRecorder is a singleton): each server asked reports the call.
	recs = checkLogMatchesJava(t, ctx, cl, adm, false, byTable)
	if n := calls(recs); n != 1 {
		t.Fatalf("slow log of %s = %+v; want the one slow Get (%d calls)", table, recs, n)
	}
	i := slices.IndexFunc(recs, func(x admin.SlowLogRecord) bool { return x.Server == server.Addr })
	if i < 0 {
		t.Fatalf("slow log of %s = %+v; want an entry from %s", table, recs, server.Addr)
	}
	r := recs[i]
	if r.Method != "Get" || r.Region != string(server.Name) || r.Server != server.Addr || r.Processing < slowCall ||
		r.Start.Before(start.Add(-time.Second)) || r.Start.After(start.Add(time.Second)) || r.User == "" || r.Client == "" {
		t.Fatalf("slow log entry = %+v; want the Get of region %s on %s, started at %v, over %v", r, server.Name, server.Addr, start, slowCall)
	}
	t.Logf("slow log entry: %s %s by %s from %s, %v processing", r.Method, r.Region, r.User, r.Client, r.Processing)

	// Each filter finds it; AND of a matching and a missing one does not, OR does.
	for _, q := range []admin.LogQuery{
		{Region: r.Region},
		{User: r.User, Table: table, MatchAll: true},
		{Client: r.Client, Table: table, MatchAll: true},
		{Servers: []string{server.Addr}, Table: table},
		{Table: table, User: "nobody"},
		{Table: table, User: "nobody", MatchAll: true},
	} {
		got := checkLogMatchesJava(t, ctx, cl, adm, false, q)
		want := 1
		if q.User == "nobody" && q.MatchAll {
			want = 0
		}
		if n := calls(slices.DeleteFunc(got, func(x admin.SlowLogRecord) bool { return x.Region != r.Region })); n != want {
			t.Errorf("SlowLogs(%+v) has %d calls of %s; want %d", q, n, r.Region, want)
		}
	}
	// Each entry names the server that answered it: asked alone, the other server's
	// entries (the shared log's) are its own.
	other := regions[0].Server ^ 1
	st, err := cl.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	otherAddr := st.RegionServers[other].Addr
	for _, x := range checkLogMatchesJava(t, ctx, cl, adm, false, admin.LogQuery{Servers: []string{otherAddr}, Table: table}) {
		if x.Server != otherAddr {
			t.Errorf("SlowLogs of %s has an entry of %s: %+v", otherAddr, x.Server, x)
		}
	}

	if err := adm.ClearSlowLogs(ctx, server.Addr); err != nil {
		t.Fatal(err)
	}
	if got := checkLogMatchesJava(t, ctx, cl, adm, false, byTable); len(got) != 0 {
		t.Fatalf("slow log of %s after ClearSlowLogs = %+v; want none", table, got)
	}
}

// TestLargeLogOfALargeAnswer: a Get answering more than the large call threshold is in the
// large log, as the Java Admin finds it.
func TestLargeLogOfALargeAnswer(t *testing.T) {
	cl, c, adm := newAdmin(t)
	ctx := stepContext(t, 2*time.Minute)
	table := env.Table(t, []string{"f"}, nil)
	big := make([]byte, 4*largeCall)
	put, err := hrpc.NewPut(table, []byte("big"), hrpc.Value([]byte("f"), []byte("q"), big))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Put(ctx, put); err != nil {
		t.Fatal(err)
	}
	get, err := hrpc.NewGet(table, []byte("big"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, get); err != nil {
		t.Fatal(err)
	}
	q := admin.LogQuery{Table: table, Limit: 50}
	var recs []admin.SlowLogRecord
	eventually(t, 30*time.Second, "the large Get in the large log", func() bool {
		recs, err = adm.LargeLogs(ctx, q)
		return err == nil && slices.ContainsFunc(recs, func(r admin.SlowLogRecord) bool { return r.Method == "Get" })
	})
	recs = checkLogMatchesJava(t, ctx, cl, adm, true, q)
	i := slices.IndexFunc(recs, func(r admin.SlowLogRecord) bool { return r.Method == "Get" })
	if i < 0 || recs[i].ResponseSize < int64(len(big)) {
		t.Fatalf("large log of %s = %+v; want the Get of %d bytes", table, recs, len(big))
	}
	if err := adm.ClearSlowLogs(ctx); err != nil {
		t.Fatal(err)
	}
	if got := checkLogMatchesJava(t, ctx, cl, adm, true, q); len(got) != 0 {
		t.Fatalf("large log after ClearSlowLogs = %+v; want none", got)
	}
}

// TestRequestLogBadInput: refusals name what was wrong and clear nothing.
func TestRequestLogBadInput(t *testing.T) {
	cl, _, adm := newAdmin(t)
	ctx := stepContext(t, time.Minute)
	before := javaLog(t, cl, false, admin.LogQuery{Limit: 1000})
	for _, tc := range []struct {
		name string
		call func() error
		want error
		says string
	}{
		{"negative limit", func() error { _, err := adm.SlowLogs(ctx, admin.LogQuery{Limit: -1}); return err }, hberr.ErrBadRequest, "log limit -1"},
		{"bad table", func() error { _, err := adm.LargeLogs(ctx, admin.LogQuery{Table: "a,b"}); return err }, hberr.ErrInvalidName, "a,b"},
		{"unknown server", func() error { _, err := adm.SlowLogs(ctx, admin.LogQuery{Servers: []string{"nohost:1"}}); return err }, hberr.ErrServerNotFound, "nohost:1"},
		{"clear an unknown server", func() error { return adm.ClearSlowLogs(ctx, "localhost:1") }, hberr.ErrServerNotFound, "localhost:1"},
		{"negative balancer limit", func() error { _, err := adm.BalancerDecisions(ctx, -5); return err }, hberr.ErrBadRequest, "log limit -5"},
	} {
		err := tc.call()
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v; want %v saying %q", tc.name, err, tc.want, tc.says)
		}
	}
	after := javaLog(t, cl, false, admin.LogQuery{Limit: 1000})
	for _, w := range before {
		if !slices.Contains(after, w) {
			t.Errorf("slow log entry %s gone after refused calls", w)
		}
	}
}

// TestBalancerLogs: the master's balancer logs are read (a mini cluster whose balancer is
// off decides nothing, so they may be empty).
func TestBalancerLogs(t *testing.T) {
	_, _, adm := newAdmin(t)
	ctx := stepContext(t, time.Minute)
	ds, err := adm.BalancerDecisions(ctx, 0)
	if err != nil {
		t.Fatalf("BalancerDecisions: %v", err)
	}
	rs, err := adm.BalancerRejections(ctx, 5)
	if err != nil {
		t.Fatalf("BalancerRejections: %v", err)
	}
	t.Logf("%d balancer decisions, %d rejections", len(ds), len(rs))
}
