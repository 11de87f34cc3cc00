package sasl

import (
	"fmt"
	"testing"
	"time"
)

// The lines are made with gokrb5 v8's own format strings (client/session.go,
// client/TGSExchange.go) and its Log method's fmt.Sprintf of a time.Time, so a gokrb5 update
// that changes them fails here rather than silently zeroing TicketStats.
func TestTicketEventsCountsGokrb5Lines(t *testing.T) {
	var e ticketEvents
	l := e.logger()
	end1 := time.Date(2026, 11, 22, 5, 30, 0, 123456789, time.UTC)
	end2 := end1.Add(30 * time.Second)
	l.Printf("TGT session added for %s (EndTime: %v)", "EXAMPLE.COM", end1)
	l.Printf("ticket added to cache for %s (EndTime: %v)", "hbase/localhost", end1)
	l.Printf("ticket received from cache for %s", "hbase/localhost")
	l.Printf("refreshing TGT session for %s", "EXAMPLE.COM")
	l.Printf("ticket added to cache for %s (EndTime: %v)", "krbtgt/EXAMPLE.COM", end2)
	l.Printf("TGT session renewed for %s (EndTime: %v)", "EXAMPLE.COM", end2)
	l.Printf("error refreshing session: %v", fmt.Errorf("[Root cause: Networking_Error] no KDC"))

	st := e.snapshot()
	want := TicketStats{
		Logins: 1, TGTRenewals: 1, ServiceTickets: 1, RefreshErrors: 1,
		TGTEnd: end2, LastError: "[Root cause: Networking_Error] no KDC",
	}
	if st.Logins != want.Logins || st.TGTRenewals != want.TGTRenewals || st.ServiceTickets != want.ServiceTickets ||
		st.RefreshErrors != want.RefreshErrors || st.LastError != want.LastError || !st.TGTEnd.Equal(want.TGTEnd) {
		t.Fatalf("stats = %+v, want %+v", st, want)
	}
}

func TestTicketEventsKeepsEndTimeOnUnparsableLine(t *testing.T) {
	var e ticketEvents
	end := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e.record(fmt.Sprintf("TGT session added for R (EndTime: %v)", end))
	e.record("TGT session renewed for R (EndTime: garbage)")
	st := e.snapshot()
	if st.TGTRenewals != 1 || !st.TGTEnd.Equal(end) {
		t.Fatalf("stats = %+v: want the renewal counted and the parsable end time kept", st)
	}
}

// Credentials without an event counter (the zero value) report zero stats, not a panic.
func TestZeroCredentialsTicketStats(t *testing.T) {
	var c Credentials
	if st := c.TicketStats(); st != (TicketStats{}) {
		t.Fatalf("zero Credentials: %+v", st)
	}
}
