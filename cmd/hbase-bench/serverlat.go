package main

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/go-hbase/hbase/hbasetrace"
)

// serverLatency is the latency of one kind of RPC to one region server, as the client saw it
// (hbase.Client.ServerLatency), for the measured rounds only.
type serverLatency struct {
	Mode      string `json:"mode,omitempty"`
	Server    string `json:"server"`
	Op        string `json:"op"`
	Count     int64  `json:"count"`
	P50Micros int64  `json:"p50_us"`
	P99Micros int64  `json:"p99_us"`
	MaxMicros int64  `json:"max_us"`
	// Slow marks a server whose p99 is over twice the median p99 of the servers for the same
	// mode and op: the one behind a batch's tail.
	Slow bool `json:"slow,omitempty"`
}

// serverLatencies is a store that knows its client's latency per region server.
type serverLatencies interface {
	ServerLatency() []hbasetrace.ServerLatency
	ResetServerLatency()
}

// resetServerLatency forgets what the load and the warm-up recorded.
func resetServerLatency(stores []store) {
	for _, st := range stores {
		if sl, ok := st.(serverLatencies); ok {
			sl.ResetServerLatency()
		}
	}
}

// collectServerLatency reads the latency per server of every store, by mode.
func collectServerLatency(modes []mode, stores []store) []serverLatency {
	var out []serverLatency
	for i, st := range stores {
		sl, ok := st.(serverLatencies)
		if !ok {
			continue
		}
		name := ""
		if len(modes) > 1 {
			name = modes[i].Name
		}
		for _, l := range sl.ServerLatency() {
			out = append(out, serverLatency{Mode: name, Server: l.Server, Op: l.Op, Count: l.Count,
				P50Micros: l.P50.Microseconds(), P99Micros: l.P99.Microseconds(), MaxMicros: l.Max.Microseconds()})
		}
	}
	markSlow(out)
	return out
}

// markSlow flags the servers whose p99 is more than twice the median p99 of their mode and op
// (with at least three servers to compare, so that one of two is not "slow" by luck).
func markSlow(ls []serverLatency) {
	type group struct{ mode, op string }
	p99s := map[group][]int64{}
	for _, l := range ls {
		g := group{l.Mode, l.Op}
		p99s[g] = append(p99s[g], l.P99Micros)
	}
	for i := range ls {
		v := p99s[group{ls[i].Mode, ls[i].Op}]
		if len(v) < 3 {
			continue
		}
		s := slices.Sorted(slices.Values(v))
		if median := s[len(s)/2]; ls[i].P99Micros > 2*median {
			ls[i].Slow = true
		}
	}
}

// writeServerLatency prints the latency per region server, a slow one marked.
func writeServerLatency(w io.Writer, ls []serverLatency) error {
	if len(ls) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nlatency per region server (client side, every RPC of the measured runs):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	withMode := ls[0].Mode != ""
	head := "server\top\tRPCs\tp50 µs\tp99 µs\tmax µs\t\t"
	if withMode {
		head = "mode\t" + head
	}
	fmt.Fprintln(tw, head)
	for _, l := range ls {
		if withMode {
			fmt.Fprintf(tw, "%s\t", l.Mode)
		}
		slow := ""
		if l.Slow {
			slow = "SLOW"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%s\t\n", l.Server, l.Op, l.Count, l.P50Micros, l.P99Micros, l.MaxMicros, slow)
	}
	return tw.Flush()
}
