package hbase_test

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// docs/errors.md's bad-input tables are checked by the tests that produce their rows: every
// case a test runs must have its row there, with the message the case gives (its first two
// cells: the case and the normalized error; the time and the connections vary from run to
// run), and every row there must be a case of the tests (badinput_test.go,
// badinput_integration_test.go). A message that changes fails the test that runs its case,
// which prints the row to paste; a case removed fails TestErrorsDocNamesOnlyCases.

const errorsDoc = "docs/errors.md"

// errorsDocRows returns the doc's bad-input rows: case name → the error cell (unquoted).
var errorsDocRows = sync.OnceValues(func() (map[string]string, error) {
	f, err := os.Open(errorsDoc)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows := make(map[string]string)
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## The bad-input table"
			continue
		}
		if !in || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| case |") {
			continue
		}
		name, cell, ok := splitRow(line)
		if !ok {
			return nil, fmt.Errorf("%s: a bad-input row without four cells: %q", errorsDoc, line)
		}
		rows[name] = cell
	}
	return rows, sc.Err()
})

// splitRow reads a row's case and error cells; the error cell is `...` with \| for |.
func splitRow(line string) (name, msg string, ok bool) {
	cells := strings.Split(strings.ReplaceAll(strings.Trim(line, "| "), `\|`, "\x00"), " | ")
	if len(cells) != 4 {
		return "", "", false
	}
	msg = strings.ReplaceAll(strings.Trim(cells[1], "`"), "\x00", "|")
	return cells[0], msg, true
}

// checkErrorsDoc fails t unless the doc has row's case with row's message (or, for a case
// whose message is a pattern, a message the pattern matches).
func checkErrorsDoc(t *testing.T, tc badCase, row badRow) {
	t.Helper()
	doc, err := errorsDocRows()
	if err != nil {
		t.Fatal(err)
	}
	got, ok := doc[row.name]
	switch {
	case !ok:
		t.Errorf("%s has no row for this case; add it:\n%s", errorsDoc, badTable([]badRow{row}))
	case strings.HasPrefix(tc.want, "re:"):
		if !regexp.MustCompile(`^(?:` + tc.want[3:] + `)$`).MatchString(got) {
			t.Errorf("%s's message for this case does not match its pattern %q; the row of this run:\n%s",
				errorsDoc, tc.want[3:], badTable([]badRow{row}))
		}
	case got != row.msg:
		t.Errorf("%s's message for this case is stale: %q; the row of this run:\n%s", errorsDoc, got, badTable([]badRow{row}))
	}
}

// caseName finds the cases' names in the bad-input test files.
var caseName = regexp.MustCompile(`\{name: "((?:[^"\\]|\\.)*)"`)

// Every row of the doc's bad-input tables is a case of the tests: a row whose case is gone
// would never be checked again.
func TestErrorsDocNamesOnlyCases(t *testing.T) {
	doc, err := errorsDocRows()
	if err != nil {
		t.Fatal(err)
	}
	known := make(map[string]bool)
	for _, f := range []string{"badinput_test.go", "badinput_integration_test.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range caseName.FindAllStringSubmatch(string(src), -1) {
			known[strings.ReplaceAll(m[1], `\"`, `"`)] = true
		}
	}
	if len(known) < 10 {
		t.Fatalf("found %d case names in the bad-input tests: the pattern no longer reads them", len(known))
	}
	for name := range doc {
		if !known[name] {
			t.Errorf("%s has a row for %q, which no bad-input test runs", errorsDoc, name)
		}
	}
}
