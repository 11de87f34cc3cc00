// Command hbase-local runs a real HBase mini cluster on this machine for people: for trying
// the client by hand, for benchmarks and for debugging tests.
//
//	go run ./cmd/hbase-local -regionservers 3 -secure
//
// When the cluster is ready it prints shell-sourceable lines on stdout (HBASE_ZK=127.0.0.1:PORT,
// HBASE_ZNODE=/hbase and, in secure mode, KRB5_CONFIG, HBASE_PRINCIPAL, HBASE_KEYTAB and
// HBASE_SERVER_PRINCIPAL), then reads control commands (see package hbasetest: status,
// regions, split, kill-rs 0, ...) from stdin and prints one answer line per command. It stops
// the cluster on Ctrl-C, SIGTERM or the stop command; with -exit-on-eof also when stdin ends.
// With -smoke it runs the Java smoke test against the new cluster and exits; -build-only only
// builds the launcher.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
)

func main() {
	os.Exit(run())
}

func run() int {
	var o hbasetest.Options
	flag.IntVar(&o.RegionServers, "regionservers", 1, "number of region servers")
	flag.BoolVar(&o.Secure, "secure", false, "Kerberos with an embedded KDC")
	flag.StringVar(&o.Protection, "protection", "privacy", "hbase.rpc.protection in secure mode: authentication, integrity or privacy")
	flag.BoolVar(&o.AES, "aes", false, "hbase.rpc.crypto.encryption.aes.enabled (secure mode with privacy)")
	flag.BoolVar(&o.TLS, "tls", false, "native TLS on every RPC server, client certificates required (HBase 2.6+); prints the PEM files")
	flag.StringVar(&o.HBaseVersion, "hbase-version", hbasetest.DefaultHBaseVersion, "hbase-testing-util version")
	flag.IntVar(&o.ZKPort, "zk-port", 0, "ZooKeeper port (0: a free one)")
	flag.IntVar(&o.MasterPort, "master-port", 0, "master port (0: a free one)")
	flag.IntVar(&o.ControlPort, "control-port", 0, "launcher control port (0: a free one)")
	flag.IntVar(&o.HeapMB, "heap-mb", 1024, "JVM heap in MB")
	flag.BoolVar(&o.FullJIT, "full-jit", false, "run the JVM with its optimising compiler (for benchmarks)")
	flag.BoolVar(&o.Quotas, "quotas", false, "RPC quotas on (hbase.quota.enabled, caches refreshed every second), for the throttle command")
	timeout := flag.Duration("timeout", 5*time.Minute, "how long building and starting may take")
	smoke := flag.Bool("smoke", false, "run the Java smoke test against the cluster, then stop")
	envFile := flag.String("env", "", "also write the KEY=VALUE lines to this file")
	exitOnEOF := flag.Bool("exit-on-eof", false, "stop when stdin ends")
	verbose := flag.Bool("v", false, "log progress to stderr")
	buildOnly := flag.Bool("build-only", false, "only build the launcher (Maven), then exit")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "hbase-local: unexpected arguments %q\n", flag.Args())
		return 2
	}
	o.StartTimeout = *timeout
	if *verbose {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *buildOnly {
		bctx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		if err := hbasetest.BuildLauncher(bctx, o.HBaseVersion, o.Logger); err != nil {
			fmt.Fprintln(os.Stderr, "hbase-local:", err)
			return 1
		}
		return 0
	}
	began := time.Now()
	fmt.Fprintf(os.Stderr, "hbase-local: starting HBase %s (%d region servers, secure=%v)...\n", o.HBaseVersion, max(o.RegionServers, 1), o.Secure)
	c, err := hbasetest.Start(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hbase-local:", err)
		return 1
	}
	defer func() {
		fmt.Fprintln(os.Stderr, "hbase-local: stopping the cluster")
		c.Stop()
	}()
	fmt.Fprintf(os.Stderr, "hbase-local: ready in %s (data in %s)\n", time.Since(began).Round(time.Millisecond), c.Dir)

	env := envLines(c)
	fmt.Print(env)
	if *envFile != "" {
		if err := os.WriteFile(*envFile, []byte(env), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "hbase-local:", err)
			return 1
		}
	}

	if *smoke {
		out, err := c.JavaSmoke(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, "hbase-local:", err)
			return 1
		}
		fmt.Println("SMOKE OK", out)
		return 0
	}
	return serve(ctx, c, os.Stdin, os.Stdout, *exitOnEOF)
}

func envLines(c *hbasetest.Cluster) string {
	var b strings.Builder
	fmt.Fprintf(&b, "HBASE_ZK=%s\n", c.ZKQuorum)
	fmt.Fprintf(&b, "HBASE_ZNODE=%s\n", c.ZNodeParent)
	fmt.Fprintf(&b, "HBASE_MASTER=%s\n", c.MasterAddr)
	fmt.Fprintf(&b, "HBASE_CONTROL=%s\n", c.ControlAddr)
	if c.KRB5Conf != "" {
		fmt.Fprintf(&b, "KRB5_CONFIG=%s\n", c.KRB5Conf)
		fmt.Fprintf(&b, "HBASE_PRINCIPAL=%s\n", c.ClientPrincipal)
		fmt.Fprintf(&b, "HBASE_KEYTAB=%s\n", c.Keytab)
		fmt.Fprintf(&b, "HBASE_SERVER_PRINCIPAL=%s\n", c.ServerPrincipal)
		fmt.Fprintf(&b, "HBASE_PROTECTION=%s\n", c.Protection)
		fmt.Fprintf(&b, "HBASE_AES=%v\n", c.AES)
	}
	if c.TLS != nil {
		fmt.Fprintf(&b, "HBASE_TLS_CA=%s\n", c.TLS.CA)
		fmt.Fprintf(&b, "HBASE_TLS_CERT=%s\n", c.TLS.ClientCert)
		fmt.Fprintf(&b, "HBASE_TLS_KEY=%s\n", c.TLS.ClientKey)
	}
	return b.String()
}

// serve passes command lines from in to the cluster and prints one answer line each, until
// ctx ends, the cluster stops or (with exitOnEOF) in ends.
func serve(ctx context.Context, c *hbasetest.Cluster, in io.Reader, out io.Writer, exitOnEOF bool) int {
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), 64<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for {
		select {
		case <-ctx.Done():
			return 0
		case <-c.Done():
			fmt.Fprintln(os.Stderr, "hbase-local: the cluster exited")
			return 0
		case line, ok := <-lines:
			if !ok {
				if exitOnEOF {
					return 0
				}
				lines = nil // keep running until a signal
				continue
			}
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			ans, err := c.Command(ctx, line)
			var ce *hbasetest.CommandError
			switch {
			case err == nil && ans == "":
				fmt.Fprintln(out, "OK")
			case err == nil:
				fmt.Fprintln(out, "OK", ans)
			case errors.As(err, &ce):
				fmt.Fprintln(out, "ERR", ce.Reason)
			default:
				fmt.Fprintln(out, "ERR", err)
			}
			if line == "stop" {
				return 0
			}
		}
	}
}
