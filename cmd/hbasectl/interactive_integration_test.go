package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/admin"
	"github.com/go-hbase/hbase/hrpc"
)

// terminal is hbasectl running in a tmux pane: keys are typed with send-keys and the screen
// read with capture-pane, as a person would see it.
type terminal struct {
	t       *testing.T
	session string
}

func tmux(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("tmux", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux %q: %v: %s", args, err, out)
	}
	return string(out)
}

// startTerminal runs bin with env in a new tmux session of 160x50.
func startTerminal(t *testing.T, bin string, env ...string) *terminal {
	t.Helper()
	session := fmt.Sprintf("hbasectl_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6)
	args := []string{"new-session", "-d", "-s", session, "-x", "160", "-y", "50"}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	tmux(t, append(args, bin, "-connect-timeout", "30s", "-timeout", "120s")...)
	term := &terminal{t: t, session: session}
	t.Cleanup(func() { _ = exec.Command("tmux", "kill-session", "-t", session).Run() })
	return term
}

func (term *terminal) screen() string {
	out, err := exec.Command("tmux", "capture-pane", "-p", "-J", "-S", "-1000", "-t", term.session).CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
}

// keys types: literal text, or a tmux key name (Enter, Tab, Up, C-c, C-d) when key is set.
func (term *terminal) keys(text string) {
	term.t.Helper()
	tmux(term.t, "send-keys", "-t", term.session, "-l", text)
}

func (term *terminal) key(name string) {
	term.t.Helper()
	tmux(term.t, "send-keys", "-t", term.session, name)
}

// waitFor waits until the screen holds want more times than it did (count before), and
// returns the screen.
func (term *terminal) waitFor(want string, before int) string {
	term.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := term.screen()
		if strings.Count(s, want) > before {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("the screen did not show %q (more than %d times) within 60 s:\n%s", want, before, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (term *terminal) count(s string) int { return strings.Count(term.screen(), s) }

// TestShellInteractive drives the interactive mode in a real terminal: completion of verbs,
// table names and families, a hash over several lines, Ctrl-C of a long scan leaving the
// shell running, and the history kept across two runs.
func TestShellInteractive(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed to drive the interactive mode (.ci/run installs it): %v", err)
	}
	cluster := shared.Cluster(t)
	bin := filepath.Join(t.TempDir(), "hbasectl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	table := fmt.Sprintf("tty_%d", time.Now().UnixNano()%1e6)
	client, err := hbase.NewClient(cluster.ZKQuorum)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	a := admin.New(client)
	desc, err := hrpc.NewTableDescriptor(table, hrpc.WithFamily("fam"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(t.Context(), desc); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = a.DisableTable(t.Context(), table); _ = a.DeleteTable(t.Context(), table) }()
	// 20,000 rows, which a scan of one row per call (CACHE => 1) reads for several seconds:
	// long enough to be stopped. (A ValueFilter of a backtracking regular expression, (a+)+b
	// over 300 values of 22 a's and a c, did not slow HBase 2.6 on JDK 17: that scan took
	// 0.12 s, often ending before the Ctrl-C.)
	const rows = 20000
	for start := 0; start < rows; start += 2000 {
		var calls []hrpc.Batchable
		for i := start; i < start+2000; i++ {
			p, err := hrpc.NewPut(table, fmt.Appendf(nil, "k%05d", i), hrpc.Value([]byte("fam"), []byte("q"), []byte("ab")))
			if err != nil {
				t.Fatal(err)
			}
			calls = append(calls, p)
		}
		for _, r := range client.SendBatch(t.Context(), calls) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
		}
	}

	history := filepath.Join(t.TempDir(), "history")
	env := []string{"HBASE_ZK=" + cluster.ZKQuorum, "HBASECTL_HISTORY=" + history}
	term := startTerminal(t, bin, env...)
	term.waitFor("hbase> ", 0)

	// Completion: the verb, the table name, then the family.
	term.keys("sca")
	term.key("Tab")
	term.waitFor("hbase> scan ", 0)
	term.keys("'" + table[:6])
	term.key("Tab")
	term.waitFor("scan '"+table, 0)
	term.keys("', {COLUMNS => ['fa")
	term.key("Tab")
	term.waitFor("['fam:", 0)
	term.keys("q'], LIMIT => 2}")
	term.key("Enter")
	s := term.waitFor("2 row(s) in ", 0)
	if !strings.Contains(s, " k00000") || !strings.Contains(s, "column=fam:q, timestamp=") {
		t.Fatalf("the completed scan printed:\n%s", s)
	}

	// A hash over three lines.
	term.keys("get '" + table + "', 'k00001', {")
	term.key("Enter")
	term.waitFor("hbase*> ", 0)
	term.keys("COLUMN => 'fam:q',")
	term.key("Enter")
	term.waitFor("hbase*> ", 1)
	term.keys("VERSIONS => 1 }")
	term.key("Enter")
	s = term.waitFor("1 row(s) in ", 0)
	if !strings.Contains(s, " fam:q") || !strings.Contains(s, "value=ab") {
		t.Fatalf("the multi-line get printed:\n%s", s)
	}

	// Ctrl-C stops a long scan; the shell goes on.
	term.keys(`scan '` + table + `', {CACHE => 1}`)
	term.key("Enter")
	term.waitFor(" k00003 ", 0)
	start := time.Now()
	term.key("C-c")
	s = term.waitFor("Interrupted: scan stopped", 0)
	if strings.Contains(s, fmt.Sprintf(" k%05d ", rows-1)) {
		t.Fatalf("the scan ran to its end before Ctrl-C stopped it:\n%s", s)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Ctrl-C took %v to stop the scan", d)
	}
	term.waitFor("hbase> ", term.count("hbase> ")-1)
	term.keys("exists '" + table + "'")
	term.key("Enter")
	term.waitFor("Table "+table+" does exist", 0)

	// Ctrl-C while typing drops the line.
	term.keys("get 'nothing")
	term.key("C-c")
	term.waitFor("^C", 0)
	term.keys("exit")
	term.key("Enter")
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command("tmux", "has-session", "-t", term.session).Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("exit did not end hbasectl:\n%s", term.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}

	// A new run has the previous run's history: Up shows exit, then exists.
	term = startTerminal(t, bin, env...)
	term.waitFor("hbase> ", 0)
	term.key("Up")
	term.waitFor("hbase> exit", 0)
	term.key("Up")
	term.waitFor("hbase> exists '"+table+"'", 0)
	term.key("Enter")
	term.waitFor("does exist", 0)
	term.key("C-d")
	data, err := os.ReadFile(history)
	if err != nil || !strings.Contains(string(data), "get '"+table+"', 'k00001', { COLUMN => 'fam:q', VERSIONS => 1 }\n") {
		t.Errorf("history file %s: %v\n%s", history, err, data)
	}
}
