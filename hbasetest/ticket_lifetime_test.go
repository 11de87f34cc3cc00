package hbasetest

import (
	"strings"
	"testing"
	"time"
)

func TestTicketLifetimeValidation(t *testing.T) {
	for _, c := range []struct {
		opts Options
		bad  bool
	}{
		{Options{}, false},
		{Options{Secure: true, TicketLifetime: 30 * time.Second}, false},
		{Options{TicketLifetime: 30 * time.Second}, true}, // no KDC to apply it to
		{Options{Secure: true, TicketLifetime: -time.Second}, true},
	} {
		o := c.opts.withDefaults()
		err := validate(&o)
		if (err != nil) != c.bad {
			t.Errorf("validate(%+v) = %v, want error: %v", c.opts, err, c.bad)
		}
		if err != nil && !strings.Contains(err.Error(), "ticket lifetime") {
			t.Errorf("validate(%+v) = %v: does not name the ticket lifetime", c.opts, err)
		}
	}
}

func TestTicketLifetimeSecondsRoundsUp(t *testing.T) {
	for d, want := range map[time.Duration]int64{
		30 * time.Second:      30,
		30*time.Second + 1:    31,
		time.Millisecond:      1,
		2*time.Minute + 500e6: 121,
	} {
		if got := ticketLifetimeSeconds(d); got != want {
			t.Errorf("ticketLifetimeSeconds(%v) = %d, want %d", d, got, want)
		}
	}
}
