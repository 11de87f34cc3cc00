package hbasetest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Cluster is a running mini cluster. Its fields are set by Start and never change.
type Cluster struct {
	ZKQuorum    string // "127.0.0.1:port"
	ZNodeParent string // "/hbase"
	MasterAddr  string // "localhost:port" of the first master
	ControlAddr string // loopback TCP address of the launcher's control port
	Dir         string // the cluster's data directory (removed on Stop)

	// Secure mode only.
	KRB5Conf        string // path of the krb5.conf written for the embedded KDC
	ClientPrincipal string // e.g. "client@EXAMPLE.COM"
	Keytab          string // keytab of ClientPrincipal
	ServerPrincipal string // "hbase/localhost@EXAMPLE.COM"
	Protection      string // hbase.rpc.protection: one name or a comma list (Options.Protection)
	AES             bool   // hbase.rpc.crypto.encryption.aes.enabled

	// Secure mode only: GuestPrincipal ("guest@EXAMPLE.COM") and its keytab, a second client
	// principal, with no permission of its own when Options.AccessControl is on.
	GuestPrincipal string
	GuestKeytab    string

	// TLS mode only: the certificates, and a client configuration (TLS.TLSConfig).
	TLS *TLSFiles

	// Peer is the second cluster of Options.PeerCluster, nil without it.
	Peer *PeerCluster

	opts     Options
	launcher *launcher
	log      *slog.Logger
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	stdout   *tailBuffer   // launcher's stdout: READY and protocol lines
	stderr   *tailBuffer   // launcher's stderr: errors
	exited   chan struct{} // closed when the JVM exited
	waitErr  error         // set before exited closes
	stopOnce sync.Once
}

// StartT starts a cluster for one test and stops it when the test and its subtests finish,
// fail or panic. It fails the test when the cluster does not start.
func StartT(t testing.TB, opts Options) *Cluster {
	t.Helper()
	c, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	return c
}

// Start builds the launcher if needed, starts a cluster and waits until it serves requests,
// at most opts.StartTimeout or until ctx ends. A cluster that fails to start is torn down
// and the error (a *StartError) carries the end of the launcher's output. The caller must
// call Stop.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	opts = opts.withDefaults()
	if err := validate(&opts); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
	defer cancel()
	began := time.Now()
	l, err := buildLauncher(ctx, opts.HBaseVersion, opts.Logger)
	if err != nil {
		return nil, err
	}
	built := time.Now()
	var c *Cluster
	for attempt := 1; ; attempt++ {
		c, err = launch(ctx, opts, l)
		var se *StartError
		// A port chosen free may be taken (by another cluster's outgoing connection, say)
		// before the JVM binds it: choose again, unless the caller fixed the ports.
		if err != nil && attempt < 3 && !fixedPorts(opts) && errors.As(err, &se) && (strings.Contains(se.LogTail, "is in use") || strings.Contains(se.LogTail, "Address already in use")) {
			opts.Logger.Info("hbasetest: a chosen port was taken; retrying", "attempt", attempt)
			continue
		}
		if err != nil {
			return nil, err
		}
		break
	}
	c.log.Info("hbasetest: cluster ready", "zk", c.ZKQuorum, "regionservers", opts.RegionServers,
		"secure", opts.Secure, "build", built.Sub(began).Round(time.Millisecond),
		"start", time.Since(built).Round(time.Millisecond))
	return c, nil
}

// launch starts one JVM on freshly chosen ports and waits for it to be ready.
func launch(ctx context.Context, opts Options, l *launcher) (*Cluster, error) {
	ports, err := choosePorts(opts)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "hbasetest-")
	if err != nil {
		return nil, fmt.Errorf("hbasetest: %w", err)
	}
	c := &Cluster{
		Dir:        dir,
		Protection: opts.Protection,
		AES:        opts.AES,
		opts:       opts,
		launcher:   l,
		log:        opts.Logger,
		stdout:     newTailBuffer(20),
		stderr:     newTailBuffer(60),
		exited:     make(chan struct{}),
	}
	if opts.TLS {
		if c.TLS, err = makeTLSFiles(filepath.Join(dir, "tls")); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("hbasetest: making TLS certificates: %w", err)
		}
	}
	ready, err := c.spawn(ports)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	select {
	case line := <-ready:
		if err := c.parseReady(line); err != nil {
			tail := c.failureTail()
			c.Stop()
			return nil, &StartError{Err: err, LogTail: tail}
		}
		return c, nil
	case <-c.exited:
		tail := c.failureTail()
		c.Stop()
		return nil, &StartError{Err: fmt.Errorf("launcher exited: %v", c.waitErr), LogTail: tail}
	case <-ctx.Done():
		tail := c.failureTail()
		c.Stop()
		return nil, &StartError{Err: fmt.Errorf("not ready: %w", ctx.Err()), LogTail: tail}
	}
}

func fixedPorts(o Options) bool {
	return o.ZKPort != 0 || o.MasterPort != 0 || o.ControlPort != 0 || len(o.RegionServerPorts) > 0
}

// validate checks o and puts its protection list in canonical form.
func validate(o *Options) error {
	prot, err := normalizeProtection(o.Protection)
	if err != nil {
		return err
	}
	o.Protection = prot
	if o.RegionServerPorts != nil && len(o.RegionServerPorts) != o.RegionServers {
		return fmt.Errorf("hbasetest: %d region server ports for %d region servers", len(o.RegionServerPorts), o.RegionServers)
	}
	if o.TicketLifetime < 0 || (o.TicketLifetime > 0 && !o.Secure) {
		return fmt.Errorf("hbasetest: ticket lifetime %v needs Secure and a positive duration", o.TicketLifetime)
	}
	if o.PeerCluster && (o.Secure || o.TLS) {
		return errors.New("hbasetest: PeerCluster needs a plain cluster (not Secure, not TLS)")
	}
	if o.TLSAllowPlaintext && !o.TLS {
		return errors.New("hbasetest: TLSAllowPlaintext needs TLS")
	}
	for k := range o.Conf {
		if k == "" || strings.ContainsAny(k, "= \t\n") {
			return fmt.Errorf("hbasetest: Conf key %q is not a configuration key", k)
		}
	}
	if err := validateSecurity(o); err != nil {
		return err
	}
	if len(o.ProxyUsers) > 0 && !o.Secure {
		return errors.New("hbasetest: ProxyUsers needs Secure")
	}
	for _, u := range o.ProxyUsers {
		if u == "" || strings.ContainsAny(u, ", \t\n") {
			return fmt.Errorf("hbasetest: bad proxy user %q", u)
		}
	}
	if strings.ContainsAny(o.HBaseVersion, " /\\") {
		return fmt.Errorf("hbasetest: bad HBase version %q", o.HBaseVersion)
	}
	return nil
}

type clusterPorts struct {
	zk, master, control int
	rs                  []int
}

// choosePorts fills the ports the caller left at 0 with ports that are free now. Another
// process may take one before the JVM binds it; the launcher then fails with "port in use"
// rather than hanging.
func choosePorts(o Options) (clusterPorts, error) {
	p := clusterPorts{zk: o.ZKPort, master: o.MasterPort, control: o.ControlPort}
	p.rs = make([]int, o.RegionServers)
	copy(p.rs, o.RegionServerPorts)
	want := []*int{&p.zk, &p.master, &p.control}
	for i := range p.rs {
		want = append(want, &p.rs[i])
	}
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	for _, w := range want {
		if *w != 0 {
			continue
		}
		// Keep every listener open until all are chosen so no port is picked twice.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return p, fmt.Errorf("hbasetest: choosing a free port: %w", err)
		}
		held = append(held, l)
		*w = l.Addr().(*net.TCPAddr).Port
	}
	return p, nil
}

func (c *Cluster) jvmArgs() []string {
	args := []string{
		"-Xmx" + strconv.Itoa(c.opts.HeapMB) + "m",
		"-XX:+UseSerialGC",
		"-Xss512k",
		"-XX:MaxDirectMemorySize=256m",
		"-Djava.net.preferIPv4Stack=true",
		"-Dlog4j2.disable.jmx=true",
		"--add-opens=java.base/java.nio=ALL-UNNAMED",
		"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
		"--add-opens=java.base/java.lang=ALL-UNNAMED",
		"--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
		"--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
		"--add-opens=java.base/java.util=ALL-UNNAMED",
		"--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
		"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
		"--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
	}
	if !c.opts.FullJIT {
		args = append(args, "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1")
	}
	return append(args, c.opts.JVMArgs...)
}

// spawn starts the launcher JVM and returns a channel that receives its READY line.
func (c *Cluster) spawn(p clusterPorts) (<-chan string, error) {
	rs := make([]string, len(p.rs))
	for i, port := range p.rs {
		rs[i] = strconv.Itoa(port)
	}
	site, err := c.liveSiteDir()
	if err != nil {
		return nil, err
	}
	args := append(c.jvmArgs(),
		"-Dhbasetest.log.dir="+filepath.Join(c.Dir, "logs"),
		"-Dhbasetest.live.site="+site,
		"-cp", site+string(os.PathListSeparator)+c.launcher.classpath,
		"org.gohbase.minicluster.Launcher",
		"--dir", filepath.Join(c.Dir, "cluster"),
		"--zk-port", strconv.Itoa(p.zk),
		"--master-port", strconv.Itoa(p.master),
		"--control-port", strconv.Itoa(p.control),
		"--rs-ports", strings.Join(rs, ","),
	)
	if c.opts.Secure {
		args = append(args, "--secure", "--protection", c.opts.Protection)
		if c.opts.AES {
			args = append(args, "--aes")
		}
		if c.opts.TicketLifetime > 0 {
			args = append(args, "--ticket-lifetime", strconv.FormatInt(ticketLifetimeSeconds(c.opts.TicketLifetime), 10))
		}
	}
	if c.opts.Quotas {
		args = append(args, "--quotas")
	}
	if c.opts.PeerCluster {
		args = append(args, "--peer-cluster")
	}
	if c.opts.RSGroups {
		args = append(args, "--rsgroups")
	}
	args = append(args, c.securityArgs()...)
	if c.opts.PoisonReleasedBuffers {
		args = append(args, "--poison-released-buffers")
	}
	if c.TLS != nil {
		args = append(args, "--tls", filepath.Dir(c.TLS.CA))
		if c.opts.TLSAllowPlaintext {
			args = append(args, "--tls-allow-plaintext")
		}
	}
	if len(c.opts.ProxyUsers) > 0 {
		args = append(args, "--proxy-users", strings.Join(c.opts.ProxyUsers, ","))
	}
	for _, k := range slices.Sorted(maps.Keys(c.opts.Conf)) {
		args = append(args, "--conf", k+"="+c.opts.Conf[k])
	}
	cmd := exec.Command(c.launcher.java, args...)
	// Own process group: a Ctrl-C aimed at the Go program reaches the JVM only through Stop,
	// which shuts it down in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	ready := make(chan string, 1)
	// exec copies stdout into c.stdout and Wait waits for that copy, so no line is lost.
	c.stdout.watch = func(line string) {
		if strings.HasPrefix(line, "READY ") {
			select {
			case ready <- line:
			default:
			}
		}
	}
	cmd.Stdout = c.stdout
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("hbasetest: starting %s: %w", c.launcher.java, err)
	}
	c.cmd, c.stdin = cmd, stdin
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	return ready, nil
}

// Version returns the HBase version of the cluster (the hbase-testing-util version, e.g.
// "2.6.1-hadoop3").
func (c *Cluster) Version() string { return c.opts.HBaseVersion }

// AtLeast reports whether the cluster's HBase is at least major.minor.
func (c *Cluster) AtLeast(major, minor int) bool {
	var ma, mi int
	if _, err := fmt.Sscanf(c.opts.HBaseVersion, "%d.%d", &ma, &mi); err != nil {
		return false
	}
	return ma > major || (ma == major && mi >= minor)
}

// parseReady reads "READY key=value ...".
func (c *Cluster) parseReady(line string) error {
	for _, w := range strings.Fields(line)[1:] {
		k, v, _ := strings.Cut(w, "=")
		switch k {
		case "zk":
			c.ZKQuorum = v
		case "znode":
			c.ZNodeParent = v
		case "master":
			c.MasterAddr = v
		case "control":
			c.ControlAddr = v
		case "krb5":
			c.KRB5Conf = v
		case "principal":
			c.ClientPrincipal = v
		case "keytab":
			c.Keytab = v
		case "server_principal":
			c.ServerPrincipal = v
		case "peer_zk", "peer_znode":
			c.Peer = c.Peer.withReadyField(k, v)
		case "guest_principal":
			c.GuestPrincipal = v
		case "guest_keytab":
			c.GuestKeytab = v
		}
	}
	if c.ZKQuorum == "" || c.ControlAddr == "" || c.ZNodeParent == "" {
		return fmt.Errorf("incomplete ready line %q", line)
	}
	if c.opts.Secure && (c.KRB5Conf == "" || c.Keytab == "" || c.ClientPrincipal == "" || c.ServerPrincipal == "") {
		return fmt.Errorf("secure cluster without credentials: %q", line)
	}
	if c.opts.PeerCluster && (c.Peer == nil || c.Peer.ZKQuorum == "" || c.Peer.ZNodeParent == "") {
		return fmt.Errorf("no peer cluster in the ready line %q", line)
	}
	return nil
}

// Stop shuts the cluster down, waits for the JVM (killing it after a minute) and removes its
// directory. It is safe to call more than once and from t.Cleanup.
func (c *Cluster) Stop() {
	c.stopOnce.Do(func() {
		if c.cmd == nil {
			os.RemoveAll(c.Dir)
			return
		}
		// Closing stdin is the launcher's stop signal, the same one a dead parent gives.
		c.stdin.Close()
		select {
		case <-c.exited:
		case <-time.After(time.Minute):
			c.log.Warn("hbasetest: launcher did not stop in time; killing it", "pid", c.cmd.Process.Pid)
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
			<-c.exited
		}
		if err := os.RemoveAll(c.Dir); err != nil {
			c.log.Warn("hbasetest: removing the cluster directory", "dir", c.Dir, "err", err)
		}
	})
}

// failureTail is the launcher's output plus the end of HBase's log, for a StartError.
func (c *Cluster) failureTail() string {
	tail := c.Output()
	if b, err := os.ReadFile(filepath.Join(c.Dir, "logs", "hbase.log")); err == nil && len(b) > 0 {
		tail += "\n--- hbase.log (tail) ---\n" + tailLines(string(b), 30)
	}
	return tail
}

// Done is closed when the launcher JVM has exited.
func (c *Cluster) Done() <-chan struct{} { return c.exited }

// Output returns the last lines the launcher wrote to stdout and stderr.
func (c *Cluster) Output() string {
	out, errs := c.stdout.String(), c.stderr.String()
	switch {
	case out == "":
		return errs
	case errs == "":
		return out
	}
	return out + "\n" + errs
}

// Command sends one raw protocol line (see the package documentation) and returns the text
// after "OK". An ERR answer is returned as a *CommandError.
func (c *Cluster) Command(ctx context.Context, line string) (string, error) {
	if strings.ContainsAny(line, "\r\n") {
		return "", errors.New("hbasetest: a command must be one line")
	}
	select {
	case <-c.exited:
		return "", ErrStopped
	default:
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", c.ControlAddr)
	if err != nil {
		return "", c.commandErr(err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if _, err := io.WriteString(conn, line+"\n"); err != nil {
		return "", c.commandErr(err)
	}
	r := bufio.NewReaderSize(conn, 64*1024)
	ans, err := r.ReadString('\n')
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", c.commandErr(err)
	}
	ans = strings.TrimRight(ans, "\r\n")
	word, _, _ := strings.Cut(line, " ")
	switch {
	case ans == "OK":
		return "", nil
	case strings.HasPrefix(ans, "OK "):
		return ans[3:], nil
	case strings.HasPrefix(ans, "ERR"):
		return "", &CommandError{Command: word, Reason: strings.TrimSpace(strings.TrimPrefix(ans, "ERR"))}
	default:
		return "", fmt.Errorf("hbasetest: %s: unexpected answer %q", word, truncate(ans, 200))
	}
}

func (c *Cluster) commandErr(err error) error {
	select {
	case <-c.exited:
		return fmt.Errorf("%w: %v", ErrStopped, err)
	default:
		return fmt.Errorf("hbasetest: control connection: %w", err)
	}
}

// Pid is the process id of the launcher JVM.
func (c *Cluster) Pid() int { return c.cmd.Process.Pid }
