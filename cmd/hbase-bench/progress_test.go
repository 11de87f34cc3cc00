package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func update(label string, elapsed time.Duration, ops int64) progressUpdate {
	return progressUpdate{Label: label, Elapsed: elapsed, Planned: 10 * time.Second, Ops: ops,
		Window: point{OpsPerSec: 1234, P50Micros: 500, P99Micros: 2000}}
}

func TestProgressPlainLines(t *testing.T) {
	var b strings.Builder
	p := newProgressPrinter(&b, false, 3*time.Second)
	for s := 1; s <= 10; s++ {
		p.update(update("randomRead", time.Duration(s)*time.Second, int64(s)))
	}
	p.update(update("scan", time.Second, 1)) // a new run starts its own count
	p.update(update("scan", 3*time.Second, 3))
	p.finish()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{"randomRead  3s/10s", "randomRead  6s/10s", "randomRead  9s/10s", "scan  3s/10s"}
	if len(lines) != len(want) {
		t.Fatalf("lines %q, want %d of them", lines, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) || !strings.Contains(lines[i], "1234 ops/s  p50 500 µs  p99 2000 µs") {
			t.Errorf("line %d = %q, want it to start %q and hold the window's figures", i, lines[i], w)
		}
	}
	if strings.Contains(b.String(), "\r") {
		t.Error("carriage return in plain output")
	}
}

func TestProgressTerminalLine(t *testing.T) {
	var b strings.Builder
	p := newProgressPrinter(&b, true, time.Second)
	p.update(update("randomRead", time.Second, 1))
	p.update(update("randomRead", 2*time.Second, 2))
	p.Write([]byte("a log line\n")) // below the live line, which stays
	p.update(update("scan", time.Second, 1))
	p.update(update("mixed", time.Second, 1)) // keeps scan's last line
	p.finish()
	got := b.String()
	want := "\r\x1b[KrandomRead  1s/10s" + rest(1) + "\r\x1b[KrandomRead  2s/10s" + rest(2) + "\na log line\n" +
		"\r\x1b[Kscan  1s/10s" + rest(1) + "\n\r\x1b[Kmixed  1s/10s" + rest(1) + "\n"
	if got != want {
		t.Errorf("terminal output\n%q\nwant\n%q", got, want)
	}
	var off strings.Builder
	q := newProgressPrinter(&off, true, 0)
	q.update(update("x", time.Second, 1))
	q.finish()
	if off.Len() != 0 {
		t.Errorf("-progress 0 printed %q", off.String())
	}
}

func rest(ops int) string {
	return fmt.Sprintf("  1234 ops/s  p50 500 µs  p99 2000 µs  ops %d  errors 0", ops)
}
