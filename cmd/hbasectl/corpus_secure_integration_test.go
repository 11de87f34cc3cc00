package main

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hbasetest"
	"github.com/go-hbase/hbase/kerberos"
)

// corpusReaders is the group the secure corpus cluster gives the guest, so that a grant to
// '@corpus_readers' reaches it.
const corpusReaders = "corpus_readers"

// secureCorpus is the cluster of the secure corpus: Kerberos, the AccessController and the
// VisibilityController, which a plain cluster cannot load; privacy with AES, hbasectl's default.
// Started on first use, stopped by
// TestMain; make test-shell-corpus runs TestShellCorpusSecure in a go test of its own, after
// the plain corpus, so that the two clusters never run at once.
var secureCorpus = hbasetest.NewShared(hbasetest.Options{Secure: true, AES: true, AccessControl: true, Visibility: true,
	UserGroups: map[string][]string{"guest": {corpusReaders}}})

// TestShellCorpusSecure runs the runbooks of testdata/corpus-secure as TestShellCorpus runs
// testdata/corpus, on the secure cluster, hbasectl as the client principal (a superuser).
// Besides the plain corpus's checks it compares, as Java's AccessControlClient and
// VisibilityClient list them, the permissions ("#perms: <table regex | @ns regex | -> [user]"),
// labels ("#labels: <regex>") and authorizations ("#auths: <user>") each side left, and runs
// "#guest: <exit code> <command> #want <text>" lines through hbasectl as the guest principal
// (no rights of its own) after hbasectl's run: the exit code must be that, and the output
// (stdout and stderr) must hold text ("!text": must not). Placeholders: those of the plain
// corpus, and $P a user, $G a group, $L a label prefix, one each per side.
func TestShellCorpusSecure(t *testing.T) {
	if os.Getenv("GOHBASE_SHELL_CORPUS") == "" {
		t.Skip("a secure cluster: GOHBASE_SHELL_CORPUS=1 (make test-shell-corpus, which .ci/run calls) runs it")
	}
	runCorpusDir(t, "testdata/corpus-secure", func(t *testing.T) corpusTarget { return secureTarget(secureCorpus.Cluster(t)) })
}

func secureTarget(c *hbasetest.Cluster) corpusTarget {
	as := func(principal, keytab string) func(string) string {
		return env("HBASE_ZK", c.ZKQuorum, "HBASE_ZNODE", c.ZNodeParent, "HBASE_PRINCIPAL", principal,
			"HBASE_KEYTAB", keytab, "KRB5_CONFIG", c.KRB5Conf, "HBASE_SERVER_PRINCIPAL", c.ServerPrincipal)
	}
	return corpusTarget{
		cluster: c,
		getenv:  as(c.ClientPrincipal, c.Keytab),
		guest:   as(c.GuestPrincipal, c.GuestKeytab),
		flags:   []string{"-kerberos"},
		options: []hbase.Option{hbase.WithZNodeParent(c.ZNodeParent), kerberos.WithKeytab(c.ClientPrincipal, c.Keytab, c.KRB5Conf),
			kerberos.WithProtection(kerberos.ProtectionPrivacy)},
	}
}

// checkGuest runs a part's "#guest:" lines as the guest, on hbasectl's side's names.
func checkGuest(t *testing.T, tg corpusTarget, part int, lines []string, names map[string]string) {
	t.Helper()
	for _, line := range lines {
		codeText, rest, _ := strings.Cut(substitute(line, names), " ")
		command, want, ok := strings.Cut(rest, " #want ")
		wantCode, err := strconv.Atoi(codeText)
		if err != nil || !ok || tg.guest == nil {
			t.Fatalf("part %d: #guest: %q: want <exit code> <command> #want <text>, on a secure cluster", part, line)
		}
		code, stdout, stderr := runArgs(t, tg.guest, append(slices.Clone(tg.flags), "-timeout", "60s", "-e", command)...)
		out := stdout + stderr
		has := strings.Contains(out, strings.TrimPrefix(want, "!"))
		if code != wantCode || has == strings.HasPrefix(want, "!") {
			t.Errorf("part %d: as the guest, %s: exit %d, output:\n%s\nwant exit %d and output with%s %q",
				part, command, code, out, wantCode, map[bool]string{true: "out", false: ""}[strings.HasPrefix(want, "!")], strings.TrimPrefix(want, "!"))
		}
	}
}
