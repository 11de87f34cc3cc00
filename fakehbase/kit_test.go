package fakehbase_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// recorder is a test whose errors are kept, not reported: what a misused kit tells the test
// of NewServer.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Error(args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprint(args...))
}

func (r *recorder) Errorf(format string, args ...any) { r.Error(fmt.Sprintf(format, args...)) }

func (r *recorder) failures() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.errs)
}

func TestInjectErrorRefusesUnknownExceptions(t *testing.T) {
	for _, tc := range []struct {
		ex   fakehbase.Exception
		want string
	}{
		{"org.apache.hadoop.hbase.RegionTooBusyExcepton", "did you mean fakehbase.RegionTooBusy"},
		{"RegionTooBusyException", "did you mean fakehbase.RegionTooBusy"},
		{"org.apache.hadoop.hbase.regiontoobusyexception", "did you mean fakehbase.RegionTooBusy"},
		{"", "no exception"},
		{"java.lang.NullPointerException", "not one fakehbase raises"},
		{"org.apache.hadoop.hbase.exceptions.RegionMovedException", "raised by the server itself"},
	} {
		rec := &recorder{TB: t}
		srv := fakehbase.NewServer(rec)
		if err := srv.CreateTable("t", []string{"f"}); err != nil {
			t.Fatal(err)
		}
		err := srv.InjectError(fakehbase.Match{Op: fakehbase.OpGet}, tc.ex, "x", 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("InjectError(%q) = %v; want an error saying %q", tc.ex, err, tc.want)
		}
		if f := rec.failures(); len(f) != 1 || f[0] != err.Error() {
			t.Errorf("InjectError(%q) failed the test with %q; want its error once", tc.ex, f)
		}
		// Nothing was injected: the Get is served.
		c, err := srv.NewClient()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := get(ctxT(t, 5*time.Second), c, "a"); err != nil {
			t.Errorf("get after a refused InjectError(%q) = %v; want it served", tc.ex, err)
		}
		c.Close()
	}
}

// Every exception a test can inject is one the client classifies as its constant's comment
// says: a misspelt constant would fall to "unknown IOException, retryable".
func TestExceptionsAreKnownToTheClient(t *testing.T) {
	for ex, want := range map[fakehbase.Exception]error{
		fakehbase.NotServingRegion: hberr.ErrRegionUnavailable, fakehbase.RegionOpening: hberr.ErrRegionUnavailable,
		fakehbase.RegionOffline: hberr.ErrRegionUnavailable, fakehbase.WrongRegion: hberr.ErrRegionUnavailable,
		fakehbase.RegionServerStopped: hberr.ErrServerStopping, fakehbase.RegionServerAborted: hberr.ErrServerStopping,
		fakehbase.ServerNotRunningYet: hberr.ErrServerStopping, fakehbase.PleaseHold: hberr.ErrServerStopping,
		fakehbase.MasterNotRunning: hberr.ErrServerStopping,
		fakehbase.CallQueueTooBig:  hberr.ErrOverloaded, fakehbase.CallDropped: hberr.ErrOverloaded,
		fakehbase.UnknownScanner: hberr.ErrScannerExpired, fakehbase.ScannerReset: hberr.ErrScannerExpired,
		fakehbase.OutOfOrderScannerNext: hberr.ErrScannerExpired, fakehbase.Lease: hberr.ErrScannerExpired,
		fakehbase.DoNotRetry: hberr.ErrDoNotRetry, fakehbase.TableNotFound: hberr.ErrTableNotFound,
		fakehbase.NoSuchColumnFamily: hberr.ErrNoSuchFamily, fakehbase.TableNotEnabled: hberr.ErrTableDisabled,
		fakehbase.TableNotDisabled: hberr.ErrTableNotDisabled, fakehbase.TableExists: hberr.ErrTableExists,
		fakehbase.NamespaceNotFound: hberr.ErrNamespaceNotFound, fakehbase.NamespaceExist: hberr.ErrNamespaceExists,
		fakehbase.UnknownRegion: hberr.ErrRegionNotFound, fakehbase.AccessDenied: hberr.ErrDoNotRetry,
		fakehbase.Constraint: hberr.ErrDoNotRetry, fakehbase.FailedSanityCheck: hberr.ErrDoNotRetry,
		fakehbase.InvalidFamilyOperation: hberr.ErrDoNotRetry, fakehbase.QuotaExceeded: hberr.ErrDoNotRetry,
		fakehbase.RequestTooBig: hberr.ErrDoNotRetry, fakehbase.IllegalArgument: hberr.ErrDoNotRetry,
	} {
		if err := hberr.NewRemoteError(string(ex), "x", false); !errors.Is(err, want) {
			t.Errorf("the client classifies %s as %s; want %v", ex, hberr.Class(err), want)
		}
	}
	// Retryable, and no more than that: the class is known, not taken for an unknown one.
	for _, ex := range []fakehbase.Exception{fakehbase.RetryImmediately, fakehbase.MultiActionResultTooLarge,
		fakehbase.RegionTooBusy, fakehbase.RpcThrottling, fakehbase.ServerTooBusy, fakehbase.IO} {
		if err := hberr.NewRemoteError(string(ex), "x", false); hberr.Class(err) != hberr.ClassRetryable {
			t.Errorf("the client classifies %s as %s; want retryable", ex, hberr.Class(err))
		}
	}
	if err := hberr.NewRemoteError(string(fakehbase.CallTimeout), "x", false); hberr.Class(err) != hberr.ClassTimeout || !hberr.IsRetryable(err) {
		t.Errorf("the client classifies %s as %s; want a retryable timeout", fakehbase.CallTimeout, hberr.Class(err))
	}
}

func TestMatchRefusesUnknownOps(t *testing.T) {
	rec := &recorder{TB: t}
	srv := fakehbase.NewServer(rec)
	for _, tc := range []struct {
		m    fakehbase.Match
		want string
	}{
		{fakehbase.Match{Op: "Gett"}, `unknown operation "Gett": did you mean "Get" (fakehbase.OpGet)?`},
		{fakehbase.Match{Op: "Read"}, `unknown operation "Read": want one of AddColumn, Append`},
		{fakehbase.Match{Op: "get"}, `did you mean "Get" (fakehbase.OpGet)`},
		{fakehbase.Match{Op: "truncateTable"}, `did you mean "TruncateTable"`},
		{fakehbase.Match{Meta: true, Table: "t"}, "Meta adds hbase:meta"},
	} {
		before := len(rec.failures())
		errInject := srv.InjectError(tc.m, fakehbase.DoNotRetry, "x", 1)
		errDelay := srv.InjectDelay(tc.m, time.Second, 1)
		for _, err := range []error{errInject, errDelay} {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%+v: %v; want an error saying %q", tc.m, err, tc.want)
			}
		}
		if n := srv.Calls(tc.m); n != -1 {
			t.Errorf("Calls(%+v) = %d; want -1", tc.m, n)
		}
		if got := len(rec.failures()) - before; got != 3 {
			t.Errorf("%+v failed the test %d times; want 3 (InjectError, InjectDelay, Calls)", tc.m, got)
		}
	}
	if err := srv.InjectDelay(fakehbase.Match{}, -time.Second, 1); err == nil {
		t.Error("InjectDelay of a negative delay succeeded")
	}
}

// A fault on every Get reaches the test's Get, not the client's own lookup of hbase:meta
// (before, the lookup took the fault and the test's Get succeeded).
func TestFaultLeavesMetaLookupsAlone(t *testing.T) {
	srv, c := setup(t)
	put(t, c, "a", "v")
	c2, err := srv.NewClient() // a client that has not looked the region up yet
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := srv.InjectError(fakehbase.Match{Op: fakehbase.OpGet}, fakehbase.DoNotRetry, "refused", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := get(ctxT(t, 5*time.Second), c2, "a"); !errors.Is(err, hberr.ErrDoNotRetry) {
		t.Fatalf("get = %v; want the injected DoNotRetry", err)
	}
	for _, call := range srv.CallLog() {
		if call.Table == "hbase:meta" && call.Fault != "" {
			t.Errorf("the lookup %v took the fault", call)
		}
	}
	if n := srv.Calls(fakehbase.Match{Op: fakehbase.OpGet, Table: "default:t"}); n != 1 {
		t.Errorf(`Calls(Get "default:t") = %d; want 1 (the table as "t")`, n)
	}
}

// Asked for, a fault matches the client's lookups too.
func TestFaultOnMetaWhenAsked(t *testing.T) {
	for _, m := range []fakehbase.Match{{Meta: true}, {Table: "hbase:meta"}} {
		srv, c := setup(t)
		put(t, c, "a", "v")
		c2, err := srv.NewClient()
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.InjectError(m, fakehbase.RegionTooBusy, "busy", 1); err != nil {
			t.Fatal(err)
		}
		if v, err := get(ctxT(t, 5*time.Second), c2, "a"); err != nil || v != "v" {
			t.Errorf("%+v: get = %q, %v; want v after a retried lookup", m, v, err)
		}
		var faulted []string
		for _, call := range srv.CallLog() {
			if call.Fault != "" {
				faulted = append(faulted, call.String())
			}
		}
		if len(faulted) != 1 || !strings.Contains(faulted[0], `"hbase:meta"`) {
			t.Errorf("%+v: calls a fault answered %q; want one on hbase:meta", m, faulted)
		}
		c2.Close()
	}
}

func TestCallLogOrder(t *testing.T) {
	srv, c := setup(t)
	if err := srv.InjectError(fakehbase.Match{Op: fakehbase.OpGet, Row: []byte("a")}, fakehbase.RegionTooBusy, "busy", 1); err != nil {
		t.Fatal(err)
	}
	if err := srv.InjectDelay(fakehbase.Match{Op: fakehbase.OpPut, Row: []byte("z")}, 20*time.Millisecond, 1); err != nil {
		t.Fatal(err)
	}
	put(t, c, "a", "v")
	put(t, c, "z", "w")
	if _, err := get(ctxT(t, 5*time.Second), c, "a"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, call := range srv.CallLog() {
		if call.Table == "t" {
			got = append(got, call.String())
		}
	}
	want := []string{`Put "t" "a"`, `Put "t" "z" delayed 20ms`, `Get "t" "a" -> RegionTooBusy`, `Get "t" "a"`}
	if !slices.Equal(got, want) {
		t.Fatalf("call log of t = %q; want %q", got, want)
	}
	log := srv.CallLog()
	log[0].Op = "changed"
	if srv.CallLog()[0].Op == "changed" {
		t.Fatal("CallLog returned the server's own records")
	}
}

func TestSeedThenClientReads(t *testing.T) {
	srv, c := setup(t, fakehbase.WithRegionServers(2))
	for _, row := range []string{"z", "a", "m"} {
		if err := srv.Put("t", row, "f", "q", "v"+row); err != nil {
			t.Fatal(err)
		}
	}
	if err := srv.PutAt("default:t", "a", "f", "old", 5, "at5"); err != nil {
		t.Fatal(err)
	}
	if v, err := get(ctxT(t, 5*time.Second), c, "m"); err != nil || v != "vm" {
		t.Fatalf("client get m = %q, %v; want vm", v, err)
	}
	g, _ := hrpc.NewGet("t", []byte("a"), hrpc.Columns([]byte("f"), []byte("old")))
	res, err := c.Get(ctxT(t, 5*time.Second), g)
	if err != nil || len(res.Cells) != 1 || res.Cells[0].Timestamp != 5 || string(res.Cells[0].Value) != "at5" {
		t.Fatalf("client get a f:old = %v, %v; want at5 at 5", res, err)
	}
	put(t, c, "b", "from client")
	srv.CheckGet(t, "t", "b", "f", "q", "from client")
	if _, ok, err := srv.Get("t", "nope", "f", "q"); ok || err != nil {
		t.Fatalf("Get of a missing row = %v, %v; want not ok, no error", ok, err)
	}
	rows, err := srv.Rows("t")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		for _, cell := range r.Cells {
			got = append(got, fmt.Sprintf("%s/%s:%s=%s", cell.Row, cell.Family, cell.Qualifier, cell.Value))
		}
	}
	want := []string{"a/f:old=at5", "a/f:q=va", "b/f:q=from client", "m/f:q=vm", "z/f:q=vz"}
	if !slices.Equal(got, want) {
		t.Fatalf("Rows = %q; want %q (across both regions, in order)", got, want)
	}
	for _, call := range srv.CallLog() {
		if call.Op == fakehbase.OpPut && call.Row != nil && string(call.Row) != "b" {
			t.Errorf("seeding made a call %v", call)
		}
	}
}

func TestSeedMisuseFails(t *testing.T) {
	rec := &recorder{TB: t}
	srv := fakehbase.NewServer(rec)
	if err := srv.CreateTable("t", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	if err := srv.CreateTable("off", []string{"f"}); err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := admin.New(c).DisableTable(ctxT(t, 5*time.Second), "off"); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"missing table":  srv.Put("nope", "r", "f", "q", "v"),
		"missing family": srv.Put("t", "r", "g", "q", "v"),
		"hbase:meta":     srv.Put("hbase:meta", "r", "info", "q", "v"),
		"empty row":      srv.Put("t", "", "f", "q", "v"),
		"disabled table": srv.Put("off", "r", "f", "q", "v"),
		"latest ts":      srv.PutAt("t", "r", "f", "q", 1<<63-1, "v"),
		"get no table":   func() error { _, _, err := srv.Get("nope", "r", "f", "q"); return err }(),
		"get no family":  func() error { _, _, err := srv.Get("t", "r", "g", "q"); return err }(),
		"rows no table":  func() error { _, err := srv.Rows("nope"); return err }(),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if n := len(rec.failures()); n != 9 {
		t.Errorf("the misuses failed the test %d times; want 9: %q", n, rec.failures())
	}
	check := &recorder{TB: t}
	srv.CheckGet(check, "t", "r", "f", "q", "v")
	if err := srv.Put("t", "r", "f", "q", "w"); err != nil {
		t.Fatal(err)
	}
	srv.CheckGet(check, "t", "r", "f", "q", "v")
	srv.CheckGet(check, "t", "r", "f", "q", "w")
	if f := check.failures(); len(f) != 2 || !strings.Contains(f[0], "no value") || !strings.Contains(f[1], `= "w"; want "v"`) {
		t.Errorf("CheckGet failures %q; want a missing value, then a different one", f)
	}
}
