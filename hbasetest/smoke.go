package hbasetest

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// JavaSmoke runs the launcher's Java smoke test in a separate JVM against the cluster: create
// a table, put, get, scan, increment, delete and drop with the standard HBase client, logging
// in from the client keytab in secure mode. It returns the smoke test's summary line.
func (c *Cluster) JavaSmoke(ctx context.Context) (string, error) {
	args := c.javaClientArgs("org.gohbase.minicluster.SmokeTest", "logs-smoke")
	cmd := exec.CommandContext(ctx, c.launcher.java, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := cmd.Run()
	for _, line := range strings.Split(stdout.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "SMOKE OK "); ok && err == nil {
			return rest, nil
		}
	}
	return "", fmt.Errorf("hbasetest: Java smoke test failed (%v): %s\n%s", err,
		strings.TrimSpace(stdout.String()), tailLines(stderr.String(), 30))
}

// javaClientArgs is the JVM command line of one of the launcher's stand-alone Java clients
// (their shared flags: ClientArgs.java), logging in from the client keytab in secure mode and
// asking for the strongest protection the cluster offers, with AES when it has AES on.
func (c *Cluster) javaClientArgs(mainClass, logDir string) []string {
	args := append(c.jvmArgs(),
		"-Dhbasetest.log.dir="+filepath.Join(c.Dir, logDir),
		"-cp", c.launcher.classpath,
		mainClass,
		"--zk", c.ZKQuorum, "--znode", c.ZNodeParent)
	if c.opts.Secure {
		args = append(args, "--krb5", c.KRB5Conf, "--principal", c.ClientPrincipal, "--keytab", c.Keytab,
			"--server-principal", c.ServerPrincipal, "--protection", c.Protection)
		if c.AES {
			args = append(args, "--aes")
		}
	}
	return args
}
