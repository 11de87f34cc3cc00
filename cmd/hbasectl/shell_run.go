package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// shellVerb is one command of the HBase shell's language. prepare reads the arguments and
// builds every request without touching the network, so that a runbook with bad input is
// refused whole before its first command runs.
type shellVerb struct {
	name    string
	group   string
	usage   string // the help: forms, then what it does, in this project's words
	prepare func(st statement) (action, error)
}

// action runs a prepared command.
type action func(ctx context.Context, sh *shell) (shellResult, error)

// shellResult is what a command prints: text close to the HBase shell's, or JSON.
type shellResult interface {
	// shellText writes the body; rows is the count for the "N row(s) in" line, or -1 for
	// commands whose output is not rows (they end with "Took N seconds").
	shellText(w io.Writer) (rows int64, err error)
}

// shell runs commands of the shell language on one connection.
type shell struct {
	c           *cli
	out         io.Writer
	interactive bool
	// confirm asks a yes/no question in the interactive mode (nil: yes without asking).
	confirm func(question string) bool
}

// shellVerbs are every verb, by name. Aliases point at the same verb.
func shellVerbs() map[string]*shellVerb {
	m := map[string]*shellVerb{}
	for _, list := range [][]*shellVerb{generalVerbs(), ddlVerbs(), namespaceVerbs(), dmlVerbs(), toolsVerbs(), switchVerbs(), snapshotVerbs(), quotasVerbs(), securityVerbs(), rsgroupVerbs(), replicationVerbs(), serversVerbs(), procedureVerbs()} {
		for _, v := range list {
			m[v.name] = v
		}
	}
	m["desc"] = m["describe"]
	return m
}

// shellVerbNames lists the verbs sorted, for completion and the help.
func shellVerbNames() []string {
	var names []string
	for n := range shellVerbs() {
		names = append(names, n)
	}
	names = append(names, "help", "exit", "quit")
	sort.Strings(names)
	return names
}

// prepared is a statement ready to run.
type prepared struct {
	st  statement
	act action
}

// prepareAll parses src and prepares every command in it; any bad input is an error naming
// its line, and nothing has been sent.
func prepareAll(src string, verbs map[string]*shellVerb) ([]prepared, error) {
	sts, err := parseScript(src)
	if err != nil {
		return nil, usagef("%v", err)
	}
	out := make([]prepared, 0, len(sts))
	for _, st := range sts {
		act, err := prepareOne(st, verbs)
		if err != nil {
			return nil, usagef("line %d: %s: %s", st.line, st.verb, buildMessage(err))
		}
		out = append(out, prepared{st: st, act: act})
	}
	return out, nil
}

func prepareOne(st statement, verbs map[string]*shellVerb) (action, error) {
	switch st.verb {
	case "help":
		return prepareHelp(st, verbs)
	case "exit", "quit":
		if len(st.args) > 0 {
			return nil, fmt.Errorf("takes no arguments")
		}
		return func(context.Context, *shell) (shellResult, error) { return nil, errExit }, nil
	}
	v := verbs[st.verb]
	if v == nil {
		if reason, ok := notTakenReason(st.verb); ok {
			return nil, fmt.Errorf("a command of the HBase shell that hbasectl does not take: %s", reason)
		}
		return nil, fmt.Errorf("unknown command (help lists the commands)%s", suggest(st.verb))
	}
	return v.prepare(st)
}

// suggest names the verbs close to a mistyped one.
func suggest(name string) string {
	var near []string
	for _, n := range shellVerbNames() {
		if strings.HasPrefix(n, name) || strings.HasPrefix(name, n) && len(n) > 3 || strings.Contains(n, name) && len(name) > 3 {
			near = append(near, n)
		}
	}
	if len(near) == 0 || len(near) > 6 {
		return ""
	}
	return "; did you mean " + strings.Join(near, ", ") + "?"
}

var errExit = errors.New("exit")

// buildMessage is the message of a request the library refused to build, without its
// package prefix: the user wrote a shell command, not a Go call.
func buildMessage(err error) string {
	msg := err.Error()
	for _, p := range []string{"hrpc: bad request: ", "hrpc: "} {
		msg = strings.ReplaceAll(msg, p, "")
	}
	return msg
}

// runPrepared runs one prepared command and prints its result and timing.
func (sh *shell) runPrepared(ctx context.Context, p prepared) error {
	start := time.Now()
	res, err := p.act(ctx, sh)
	secs := time.Since(start).Seconds()
	if err != nil {
		return err
	}
	if res == nil {
		return nil
	}
	if sh.c.json {
		doc := struct {
			Command string      `json:"command"`
			Result  shellResult `json:"result"`
			Seconds float64     `json:"seconds"`
		}{p.st.text, res, secs}
		enc := json.NewEncoder(sh.out)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	rows, err := res.shellText(sh.out)
	if err != nil {
		return err
	}
	if _, ok := res.(*helpOut); ok {
		if sh.interactive {
			fmt.Fprintln(sh.out)
		}
		return nil
	}
	if rows >= 0 {
		_, err = fmt.Fprintf(sh.out, "%d row(s) in %.4f seconds\n", rows, secs)
	} else {
		_, err = fmt.Fprintf(sh.out, "Took %.4f seconds\n", secs)
	}
	if sh.interactive {
		fmt.Fprintln(sh.out)
	}
	return err
}

// runAll runs prepared commands in order, stopping at the first that fails.
func (sh *shell) runAll(ctx context.Context, ps []prepared) error {
	for _, p := range ps {
		if err := sh.runPrepared(ctx, p); err != nil {
			if errors.Is(err, errExit) {
				return nil
			}
			return &commandError{line: p.st.line, text: p.st.text, err: err}
		}
	}
	return nil
}

// commandError is a command of a runbook that failed on the cluster.
type commandError struct {
	line int
	text string
	err  error
}

func (e *commandError) Error() string {
	text := e.text
	if len(text) > 80 {
		text = text[:77] + "..."
	}
	return fmt.Sprintf("line %d: %s: %s", e.line, text, shellMessage(e.err))
}

func (e *commandError) Unwrap() error { return e.err }

// textResult is a command's output of a few lines, without rows.
type textResult struct {
	Message string `json:"message"`
	Lines   []string
}

func (r *textResult) shellText(w io.Writer) (int64, error) {
	for _, l := range r.Lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return -1, err
		}
	}
	if r.Message != "" {
		_, err := fmt.Fprintln(w, r.Message)
		return -1, err
	}
	return -1, nil
}

func (r *textResult) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Message string   `json:"message,omitempty"`
		Lines   []string `json:"lines,omitempty"`
	}{r.Message, r.Lines})
}

func done(format string, args ...any) *textResult {
	return &textResult{Message: fmt.Sprintf(format, args...)}
}

// boolResult is the answer of a yes/no question (exists, is_enabled, balancer_enabled...).
type boolResult struct {
	Value bool `json:"value"`
	text  string
}

func (r *boolResult) shellText(w io.Writer) (int64, error) {
	if r.text != "" {
		fmt.Fprintln(w, r.text)
	}
	_, err := fmt.Fprintln(w, r.Value)
	return -1, err
}

// listOut is a list of names (list, list_namespace ...): the shell prints one a line and
// counts them as rows.
type listOut struct {
	Header string   `json:"-"`
	Names  []string `json:"names"`
}

func (r *listOut) shellText(w io.Writer) (int64, error) {
	if r.Header != "" {
		fmt.Fprintln(w, r.Header)
	}
	for _, n := range r.Names {
		if _, err := fmt.Fprintln(w, n); err != nil {
			return 0, err
		}
	}
	return int64(len(r.Names)), nil
}

// argument helpers --------------------------------------------------------------------------

// splitOpts returns the arguments without a trailing hash, and that hash (empty if none).
func splitOpts(args []value) ([]value, value) {
	if n := len(args); n > 0 && args[n-1].kind == vHash {
		return args[:n-1], args[n-1]
	}
	return args, value{kind: vHash}
}

// wantArgs checks the count of positional arguments.
func wantArgs(args []value, lo, hi int, form string) error {
	if len(args) < lo || hi >= 0 && len(args) > hi {
		return fmt.Errorf("want %s", form)
	}
	return nil
}

// strVal is a value that must be a quoted string (what names and bytes are in the shell).
func strVal(v value, what string) (string, error) {
	switch v.kind {
	case vString:
		return v.s, nil
	case vConst:
		return "", fmt.Errorf("%s: want a quoted string, got the constant %s (quote it: '%s')", what, v.s, v.s)
	}
	return "", fmt.Errorf("%s: want a quoted string, got %s", what, v.describe())
}

func intVal(v value, what string) (int64, error) {
	if v.kind == vInt {
		return v.i, nil
	}
	return 0, fmt.Errorf("%s: want an integer, got %s", what, v.describe())
}

func boolVal(v value, what string) (bool, error) {
	if v.kind == vBool {
		return v.b, nil
	}
	if v.kind == vString {
		switch strings.ToLower(v.s) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, fmt.Errorf("%s: want true or false, got %s", what, v.describe())
}

// strList is a string or an array of strings.
func strList(v value, what string) ([]string, error) {
	if v.kind == vArray {
		out := make([]string, 0, len(v.arr))
		for _, e := range v.arr {
			s, err := strVal(e, what)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	}
	s, err := strVal(v, what)
	if err != nil {
		return nil, err
	}
	return []string{s}, nil
}

// stringMap reads a hash of strings (METADATA, CONFIGURATION, ATTRIBUTES); numbers and
// booleans are taken as their text, as the shell's to_s does.
func stringMap(v value, what string) (map[string]string, error) {
	if v.kind != vHash {
		return nil, fmt.Errorf("%s: want a hash {'key' => 'value'}, got %s", what, v.describe())
	}
	m := map[string]string{}
	for _, e := range v.hash {
		s, err := scalarText(e.val)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %v", what, e.key, err)
		}
		m[e.key] = s
	}
	return m, nil
}

// scalarText is the text of a string, number, boolean or constant.
func scalarText(v value) (string, error) {
	switch v.kind {
	case vString, vConst:
		return v.s, nil
	case vInt, vFloat, vBool:
		return v.describe(), nil
	}
	return "", fmt.Errorf("want a string, number or boolean, got %s", v.describe())
}

// tableName reads a table name argument.
func tableName(args []value, i int) (string, error) {
	if i >= len(args) {
		return "", fmt.Errorf("missing the table name")
	}
	s, err := strVal(args[i], "table name")
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", fmt.Errorf("table name: empty")
	}
	return s, nil
}
