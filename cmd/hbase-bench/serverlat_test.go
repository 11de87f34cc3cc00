package main

import (
	"strings"
	"testing"
)

func TestServerLatencySection(t *testing.T) {
	ls := []serverLatency{
		{Server: "rs1:16020", Op: "Get", Count: 100, P50Micros: 300, P99Micros: 900, MaxMicros: 1200},
		{Server: "rs2:16020", Op: "Get", Count: 100, P50Micros: 310, P99Micros: 950, MaxMicros: 1300},
		{Server: "rs3:16020", Op: "Get", Count: 100, P50Micros: 2000, P99Micros: 9000, MaxMicros: 12000},
		{Server: "rs1:16020", Op: "Put", Count: 10, P50Micros: 400, P99Micros: 9000, MaxMicros: 9000},
		{Server: "rs2:16020", Op: "Put", Count: 10, P50Micros: 400, P99Micros: 800, MaxMicros: 900},
	}
	markSlow(ls)
	for i, l := range ls {
		if want := i == 2; l.Slow != want {
			t.Errorf("%s %s: slow = %v, want %v (only rs3's Gets; two Put servers are too few to judge)", l.Server, l.Op, l.Slow, want)
		}
	}
	var b strings.Builder
	if err := writeTable(&b, &report{ServerLatency: ls}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "latency per region server") {
		t.Fatalf("no server section:\n%s", out)
	}
	var slowLines []string
	for line := range strings.SplitSeq(out, "\n") {
		if strings.Contains(line, "SLOW") {
			slowLines = append(slowLines, strings.Join(strings.Fields(line), " "))
		}
	}
	if len(slowLines) != 1 || slowLines[0] != "rs3:16020 Get 100 2000 9000 12000 SLOW" {
		t.Errorf("slow lines = %q, want rs3's Get line alone:\n%s", slowLines, out)
	}
}
