package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"sync/atomic"
	"time"
)

// Security modes of -compare-security. All three authenticate with Kerberos against the same
// cluster; they differ in what protects the bytes afterwards.
const (
	modeNone = "none"        // protection=authentication: plaintext after SASL
	modeGSS  = "privacy-gss" // protection=privacy, every frame sealed by GSS Wrap
	modeAES  = "privacy-aes" // protection=privacy, HBase's AES/CTR + HMAC-MD5 after SASL
	modeTLS  = "tls"         // native TLS (HBase 2.6), protection=authentication inside it
)

// mode is one way of connecting: a label (empty outside -compare-security) and the security
// settings of its client.
type mode struct {
	Name     string
	Security securityFlags
}

// modesFor lists the connections a run compares: one, or the three security modes.
func modesFor(c *config) []mode {
	if !c.CompareSecurity {
		return []mode{{Security: c.Security}}
	}
	base := c.Security
	base.Kerberos = true
	none, gss, aes := base, base, base
	none.Protection, none.AES = "authentication", false
	gss.Protection, gss.AES = "privacy", false
	aes.Protection, aes.AES = "privacy", true
	tlsMode := none
	tlsMode.TLS = true
	return []mode{{modeNone, none}, {modeGSS, gss}, {modeAES, aes}, {modeTLS, tlsMode}}
}

// openFunc connects a store to the cluster of c with the given security settings.
type openFunc func(ctx context.Context, c *config, sec securityFlags) (store, io.Closer, error)

// benchmark opens one store per mode, fills the table when asked, then runs every workload
// in every mode, rounds times, interleaving the modes so that drift on the server (JIT,
// flushes, compactions) spreads over all of them alike.
func benchmark(ctx context.Context, c *config, modes []mode, open openFunc, log *slog.Logger) (*report, error) {
	stores := make([]store, len(modes))
	for i, m := range modes {
		st, closer, err := open(ctx, c, m.Security)
		if err != nil {
			if len(modes) == 1 && errors.Is(err, errSetup) {
				return nil, err // says it all
			}
			return nil, fmt.Errorf("connect %s: %w", describeSecurity(m.Security), err)
		}
		defer closer.Close()
		stores[i] = st
	}
	rep := &report{Settings: settingsOf(c)}
	if c.Load {
		log.Info("loading rows", "rows", c.Rows, "concurrency", c.Concurrency)
		took, err := loadRows(ctx, stores[0], c)
		if err != nil {
			return nil, fmt.Errorf("load: %w", err)
		}
		log.Info("loaded rows", "rows", c.Rows, "took", took.Round(time.Millisecond))
	}
	if c.Warmup > 0 {
		for _, w := range c.Workloads {
			for mi, m := range modes {
				spec := specFor(c, w, m.Name, 0)
				spec.Duration, spec.Ops, spec.Seed = c.Warmup, 0, c.Seed^0x5eed
				spec.Label = string(w) + " " + m.Name + " (warm-up)"
				log.Debug("warm-up", "workload", w, "mode", m.Name)
				if _, err := runWorkload(ctx, stores[mi], spec); err != nil {
					return nil, fmt.Errorf("warm-up: %w", err)
				}
			}
		}
	}
	resetServerLatency(stores)
	merged := make([][]*result, len(c.Workloads)) // [workload][mode]
	for i := range merged {
		merged[i] = make([]*result, len(modes))
	}
	seqs := make([]*atomic.Uint64, len(c.Workloads))
	for i := range seqs {
		seqs[i] = new(atomic.Uint64)
	}
	for round := range c.Rounds {
		for wi, w := range c.Workloads {
			// Rotate which mode goes first so that none always runs right after the same
			// neighbour (the GSS mode leaves the most garbage behind).
			for k := range modes {
				mi := (k + round) % len(modes)
				m := modes[mi]
				spec := specFor(c, w, m.Name, round)
				spec.Seq = seqs[wi]
				spec.ServerCPU = c.serverCPU
				// Collect the previous run's garbage now, so that no mode pays for another's
				// (GSS wrap allocates ten times what the others do).
				runtime.GC()
				log.Debug("run", "workload", w, "mode", m.Name, "round", round+1)
				r, err := runWorkload(ctx, stores[mi], spec)
				if r != nil {
					if merged[wi][mi] == nil {
						merged[wi][mi] = r
					} else {
						merged[wi][mi].merge(r)
					}
				}
				if err != nil {
					rep.Results = flatten(merged)
					return rep, err
				}
			}
		}
	}
	rep.Results = flatten(merged)
	rep.Comparison = compare(rep.Results)
	rep.ServerLatency = collectServerLatency(modes, stores)
	return rep, nil
}

// specFor is the part of workload w that round runs: -duration and -ops are spread over the
// rounds, the remainder going to the first.
func specFor(c *config, w workloadKind, modeName string, round int) runSpec {
	s := runSpec{
		Kind:        w,
		Mode:        modeName,
		Concurrency: c.Concurrency,
		Duration:    c.Duration / time.Duration(c.Rounds),
		OpTimeout:   c.OpTimeout,
		Rows:        c.Rows,
		KeySize:     c.KeySize,
		ValueSize:   c.ValueSize,
		ScanRows:    c.ScanRows,
		ReadRatio:   c.ReadRatio,
		Rate:        c.Rate,
		Interval:    c.Interval,
		Buffered:    c.Buffered && buffers(w),
		WriteBuffer: c.WriteBuffer,
		Progress:    c.progress,
		Seed:        c.Seed + uint64(round)*7919,
	}
	if c.Ops > 0 {
		s.Ops = c.Ops / int64(c.Rounds)
		if round == 0 {
			s.Ops += c.Ops % int64(c.Rounds)
		}
	}
	return s
}

// sortResults orders results by workload as given on the command line, then by mode as
// modesFor lists them, whatever cluster each came from.
func sortResults(results []*result, c *config) {
	rank := func(r *result) int {
		w := slices.Index(c.Workloads, workloadKind(r.Workload))
		m := slices.IndexFunc(modesFor(c), func(m mode) bool { return m.Name == r.Mode })
		return w*16 + m
	}
	slices.SortStableFunc(results, func(a, b *result) int { return rank(a) - rank(b) })
}

func flatten(m [][]*result) []*result {
	var out []*result
	for _, row := range m {
		for _, r := range row {
			if r != nil {
				out = append(out, r)
			}
		}
	}
	return out
}

func settingsOf(c *config) settings {
	s := settings{
		Local:       c.Local,
		Table:       c.Table,
		Family:      c.Family,
		Qualifier:   c.Qualifier,
		PE:          c.PE,
		Caching:     c.Caching,
		Rate:        c.Rate,
		IntervalSec: c.Interval.Seconds(),
		Rows:        c.Rows,
		KeySize:     c.KeySize,
		ValueSize:   c.ValueSize,
		ScanRows:    c.ScanRows,
		Concurrency: c.Concurrency,
		DurationSec: c.Duration.Seconds(),
		Ops:         c.Ops,
		Rounds:      c.Rounds,
		WarmupSec:   c.Warmup.Seconds(),
		Seed:        c.Seed,
		Security:    describeSecurity(c.Security),
		GOMAXPROCS:  runtime.GOMAXPROCS(0),
	}
	if c.CompareSecurity {
		s.Security = "compare: " + modeNone + ", " + modeGSS + ", " + modeAES + ", " + modeTLS
	}
	if c.Local {
		s.RegionServers, s.Regions = c.RegionServers, c.Regions
	}
	if c.Buffered {
		s.WriterBoundBytes = int64(c.Concurrency) * 2 * c.WriteBuffer
	}
	for _, w := range c.Workloads {
		s.Workloads = append(s.Workloads, string(w))
		if w == mixed {
			s.ReadRatio = c.ReadRatio
		}
	}
	return s
}

// describeRun is the chart's title: the table, callers and machine of the run.
func describeRun(rep *report) string {
	s := rep.Settings
	d := fmt.Sprintf("%s, %d callers, %d rows, values of %d B, GOMAXPROCS %d", s.Table, s.Concurrency, s.Rows, s.ValueSize, s.GOMAXPROCS)
	if s.Local {
		d += ", local mini cluster"
	}
	return d
}

func describeSecurity(s securityFlags) string {
	if !s.Kerberos {
		return "simple"
	}
	if s.Protection == "privacy" && s.AES {
		return "kerberos, privacy, AES"
	}
	return "kerberos, " + s.Protection
}

// exitCode maps the outcome of a run to the process status: 0 when every operation
// succeeded, 1 when some failed or the run broke off, 2 for a bad command line or a run that
// could not start (errSetup: cluster unreachable, table missing).
func exitCode(rep *report, err error) int {
	switch {
	case errors.Is(err, errUsage), errors.Is(err, errSetup):
		return 2
	case err != nil:
		return 1
	case rep != nil && rep.totalErrors() > 0:
		return 1
	}
	return 0
}
