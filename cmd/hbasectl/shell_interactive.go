package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chzyer/readline"
)

// The interactive mode: line editing, history kept across runs, completion of verbs, table
// names and families (github.com/chzyer/readline), a command over several lines while a
// string, bracket or hash is open, and Ctrl-C stopping the running command, not the shell.

// historyPath is where the history is kept: $HBASECTL_HISTORY, else ~/.hbasectl_history.
func historyPath() string {
	if p := os.Getenv("HBASECTL_HISTORY"); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".hbasectl_history")
}

const (
	promptFirst = "hbase> "
	promptMore  = "hbase*> "
)

func (c *cli) interactive(ctx context.Context, sh *shell) error {
	comp := &completer{c: c}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:            promptFirst,
		HistoryFile:       historyPath(),
		HistoryLimit:      10000,
		HistorySearchFold: true,
		// A command over several lines is kept as one entry (saved below), so Up recalls it.
		DisableAutoSaveHistory: true,
		AutoComplete:           comp,
		InterruptPrompt:        "^C",
		EOFPrompt:              "exit",
		Stdout:                 c.stdout,
		Stderr:                 c.stderr,
	})
	if err != nil {
		return err
	}
	defer rl.Close()
	sh.interactive = true
	sh.confirm = func(q string) bool {
		rl.SetPrompt(q)
		defer rl.SetPrompt(promptFirst)
		line, err := rl.Readline()
		return err == nil && strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "y")
	}
	fmt.Fprintln(c.stdout, "hbasectl: the HBase shell's commands on go-hbase. help lists them; exit or Ctrl-D leaves.")
	verbs := shellVerbs()
	// Commands run on a context Ctrl-C cancels; the shell itself goes on.
	base := context.WithoutCancel(ctx)
	var pending []string
	for {
		if ctx.Err() != nil && !errors.Is(context.Cause(ctx), context.Canceled) {
			return nil
		}
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			pending = pending[:0]
			rl.SetPrompt(promptFirst)
			continue
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
		pending = append(pending, line)
		src := strings.Join(pending, "\n")
		if openAtEnd(src) {
			rl.SetPrompt(promptMore)
			continue
		}
		var entry []string
		for _, l := range pending {
			if l = strings.TrimSpace(l); l != "" {
				entry = append(entry, l)
			}
		}
		pending = pending[:0]
		rl.SetPrompt(promptFirst)
		if len(entry) == 0 {
			continue
		}
		_ = rl.SaveHistory(strings.Join(entry, " "))
		if exit := c.interactiveRun(base, sh, src, verbs, comp); exit {
			return nil
		}
	}
}

// interactiveRun runs the commands of one entry; it says whether one was exit.
func (c *cli) interactiveRun(base context.Context, sh *shell, src string, verbs map[string]*shellVerb, comp *completer) bool {
	sts, err := parseScript(src)
	if err != nil {
		fmt.Fprintf(c.stdout, "ERROR: %s\n\n", strings.TrimPrefix(err.Error(), "line 1: "))
		return false
	}
	for _, st := range sts {
		act, err := prepareOne(st, verbs)
		if err != nil {
			fmt.Fprintf(c.stdout, "ERROR: %s: %s\n\n", st.verb, buildMessage(err))
			return false
		}
		ctx, cancel := context.WithCancel(base)
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		var wg sync.WaitGroup
		wg.Add(1)
		stopWatch := make(chan struct{})
		go func() {
			defer wg.Done()
			select {
			case <-sig:
				cancel()
			case <-stopWatch:
			}
		}()
		err = sh.runPrepared(ctx, prepared{st: st, act: act})
		close(stopWatch)
		wg.Wait()
		signal.Stop(sig)
		interrupted := ctx.Err() != nil
		cancel()
		switch {
		case errors.Is(err, errExit):
			return true
		case interrupted:
			fmt.Fprintf(c.stdout, "\nInterrupted: %s stopped\n\n", st.verb)
			return false
		case err != nil:
			fmt.Fprintf(c.stdout, "ERROR: %s\n\n", shellMessage(err))
			return false
		}
		if isSchemaVerb(st.verb) {
			comp.forget()
		}
	}
	return false
}

func isSchemaVerb(verb string) bool {
	switch verb {
	case "create", "drop", "alter", "alter_async", "drop_all", "clone_snapshot", "clone_table_schema", "truncate", "truncate_preserve":
		return true
	}
	return false
}

// completer completes the verb at the start of a line, a table name in the first quoted
// argument, and 'family:' in later ones, from the cluster (read once, again after a
// command that changes tables).
type completer struct {
	c        *cli
	mu       sync.Mutex
	tables   []string
	families map[string][]string
}

func (k *completer) forget() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.tables, k.families = nil, nil
}

func (k *completer) tableNames() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.tables == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		a, err := k.c.admin(ctx)
		if err != nil {
			return nil
		}
		t, err := a.ListTables(ctx)
		if err != nil {
			return nil
		}
		k.tables = t
	}
	return k.tables
}

func (k *completer) familyNames(table string) []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.families == nil {
		k.families = map[string][]string{}
	}
	if f, ok := k.families[table]; ok {
		return f
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	a, err := k.c.admin(ctx)
	if err != nil {
		return nil
	}
	desc, err := a.DescribeTable(ctx, table)
	if err != nil {
		return nil
	}
	var names []string
	for _, f := range desc.Families {
		names = append(names, f.Name)
	}
	k.families[table] = names
	return names
}

// Do implements readline.AutoCompleter.
func (k *completer) Do(line []rune, pos int) ([][]rune, int) {
	before := string(line[:pos])
	word, quoted, argIndex, verb, table := completionContext(before)
	var candidates []string
	switch {
	case argIndex < 0:
		candidates = shellVerbNames()
	case quoted && argIndex == 0 && verb != "help":
		candidates = k.tableNames()
	case quoted && argIndex == 0 && verb == "help":
		candidates = shellVerbNames()
	case quoted && table != "":
		for _, f := range k.familyNames(table) {
			candidates = append(candidates, f+":")
		}
	}
	var out [][]rune
	for _, cand := range candidates {
		if strings.HasPrefix(cand, word) {
			suffix := cand[len(word):]
			if argIndex < 0 {
				suffix += " "
			}
			out = append(out, []rune(suffix))
		}
	}
	return out, len([]rune(word))
}

// completionContext finds, in the text before the cursor, the word being typed, whether it
// is inside quotes, which argument it is (-1: the verb), the verb and the first argument.
func completionContext(before string) (word string, quoted bool, argIndex int, verb, table string) {
	// The verb: the first word of the last command on the line.
	start := strings.LastIndexByte(before, ';') + 1
	cmd := strings.TrimLeft(before[start:], " \t")
	i := 0
	for i < len(cmd) && isIdentPart(cmd[i]) {
		i++
	}
	if i == len(cmd) {
		return cmd, false, -1, "", ""
	}
	verb = cmd[:i]
	rest := cmd[i:]
	argIndex = 0
	var cur strings.Builder
	var q byte
	args := []string{}
	for j := 0; j < len(rest); j++ {
		ch := rest[j]
		switch {
		case q != 0 && ch == q:
			q = 0
			args = append(args, cur.String())
			cur.Reset()
		case q != 0:
			cur.WriteByte(ch)
		case ch == '\'' || ch == '"':
			q = ch
			cur.Reset()
		case ch == ',':
			argIndex++
		}
	}
	if q != 0 {
		if len(args) > 0 {
			table = args[0]
		}
		return cur.String(), true, argIndex, verb, table
	}
	return "", false, argIndex, verb, ""
}
