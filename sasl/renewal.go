package sasl

import (
	"log"
	"strings"
	"sync"
	"time"
)

// TicketStats says what the credentials have done with their tickets so far. gokrb5 renews
// the TGT in its own goroutine and keeps no count, so these figures are what proves, in a
// test against a real KDC or in production monitoring, that a long-lived client really
// renewed its tickets.
type TicketStats struct {
	// Logins counts TGTs obtained by an AS exchange: the first login and every later login
	// with the keytab or password when the TGT could not be renewed.
	Logins int
	// TGTRenewals counts TGTs renewed by a TGS exchange.
	TGTRenewals int
	// ServiceTickets counts service tickets obtained from the KDC (not from the cache).
	ServiceTickets int
	// RefreshErrors counts failed background refreshes of the TGT (e.g. the KDC was down).
	RefreshErrors int
	// TGTEnd is the end time of the newest TGT; zero before the first login.
	TGTEnd time.Time
	// LastError is the text of the last failed refresh, empty if none failed.
	LastError string
}

// TicketStats returns a snapshot of the ticket counters.
func (c *Credentials) TicketStats() TicketStats {
	if c.events == nil {
		return TicketStats{}
	}
	return c.events.snapshot()
}

// ticketEvents counts gokrb5's ticket events. gokrb5 reports them only as log lines, so it
// is given a log.Logger whose writer parses them; the lines hold principal names and times,
// never key material.
type ticketEvents struct {
	mu    sync.Mutex
	stats TicketStats
}

// logger returns the log.Logger to hand to gokrb5 (krbclient.Logger).
func (e *ticketEvents) logger() *log.Logger { return log.New(e, "", 0) }

// Write implements io.Writer for gokrb5's logger: one call per log line.
func (e *ticketEvents) Write(p []byte) (int, error) {
	e.record(strings.TrimSpace(string(p)))
	return len(p), nil
}

// gokrb5 v8's log lines (client/session.go, client/TGSExchange.go).
const (
	lineTGTAdded     = "TGT session added for "
	lineTGTRenewed   = "TGT session renewed for "
	lineTicketAdded  = "ticket added to cache for "
	lineRefreshError = "error refreshing session: "
)

func (e *ticketEvents) record(line string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case strings.HasPrefix(line, lineTGTAdded):
		e.stats.Logins++
		e.noteTGTEnd(line)
	case strings.HasPrefix(line, lineTGTRenewed):
		e.stats.TGTRenewals++
		e.noteTGTEnd(line)
	case strings.HasPrefix(line, lineTicketAdded):
		// A TGT renewal is a TGS exchange too and is cached under krbtgt/REALM.
		if !strings.HasPrefix(line[len(lineTicketAdded):], "krbtgt/") {
			e.stats.ServiceTickets++
		}
	case strings.HasPrefix(line, lineRefreshError):
		e.stats.RefreshErrors++
		e.stats.LastError = line[len(lineRefreshError):]
	}
}

// noteTGTEnd reads "(EndTime: <time.Time's String>)" at the end of a TGT line.
func (e *ticketEvents) noteTGTEnd(line string) {
	const mark = "(EndTime: "
	i := strings.LastIndex(line, mark)
	if i < 0 || !strings.HasSuffix(line, ")") {
		return
	}
	s := line[i+len(mark) : len(line)-1]
	if t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700 MST", s); err == nil {
		e.stats.TGTEnd = t
	}
}

func (e *ticketEvents) snapshot() TicketStats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}
