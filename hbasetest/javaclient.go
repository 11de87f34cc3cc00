package hbasetest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/go-hbase/hbase/internal/cputime"
)

// JavaClient is the standard HBase Java client in a JVM of its own, run by the launcher's
// ClientBench: a reference to measure go-hbase against, in the same run and on the same
// cluster. It connects like JavaSmoke does (keytab login and the cluster's strongest
// protection in secure mode) and runs blocks of Gets or Puts on request, from one thread or
// from several. Rows are
// "row%05d" of (start+i) mod 500 and cells f:q, so a Go loop can do exactly the same work.
// A JavaClient is not safe for concurrent use. After an error it answers every call with that
// error: an answer still on its way would otherwise be taken for the next one.
type JavaClient struct {
	broken error
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File
	lines  *bufio.Reader
	stderr *tailBuffer
	done   chan struct{} // closed when the JVM exited
}

// StartJavaClient starts the Java client and waits, at most until ctx ends, until it has
// connected to the cluster. conf are client configuration settings, "key=value" each, set last
// (e.g. "hbase.client.primaryCallTimeout.get=10000", in microseconds).
func (c *Cluster) StartJavaClient(ctx context.Context, conf ...string) (*JavaClient, error) {
	args := c.javaClientArgs("org.gohbase.minicluster.ClientBench", "logs-clientbench")
	for _, kv := range conf {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("hbasetest: java client: configuration %q is not key=value", kv)
		}
		args = append(args, "--conf", kv)
	}
	cmd := exec.Command(c.launcher.java, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("hbasetest: java client: %w", err)
	}
	// An *os.File pipe of our own rather than StdoutPipe: it takes read deadlines.
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("hbasetest: java client: %w", err)
	}
	cmd.Stdout = w
	j := &JavaClient{cmd: cmd, stdin: stdin, stdout: r, lines: bufio.NewReaderSize(r, 64<<10),
		stderr: newTailBuffer(40), done: make(chan struct{})}
	cmd.Stderr = j.stderr
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("hbasetest: java client: %w", err)
	}
	w.Close()
	go func() {
		_ = cmd.Wait()
		close(j.done)
	}()
	line, err := j.readLine(ctx)
	if err != nil || line != "READY" {
		j.Close()
		return nil, j.failure("start", line, err)
	}
	return j, nil
}

// Gets runs n Gets of rows start.. on table, shared by threads threads (operation i on thread
// i mod threads, each thread's in order), and returns each one's latency as the Java client
// measured it (System.nanoTime around Table.get), in operation order.
func (j *JavaClient) Gets(ctx context.Context, table string, start, n, threads int) ([]time.Duration, error) {
	return j.block(ctx, fmt.Sprintf("get %s %d %d %d", table, start, n, threads), n)
}

// Puts is Gets for Puts of a valueLen-byte value ('v' repeated) into f:q.
func (j *JavaClient) Puts(ctx context.Context, table string, start, n, threads, valueLen int) ([]time.Duration, error) {
	return j.block(ctx, fmt.Sprintf("put %s %d %d %d %d", table, start, n, threads, valueLen), n)
}

// CPUTime is the CPU time the client's JVM has used so far (see Cluster.CPUTime).
func (j *JavaClient) CPUTime() (time.Duration, error) { return cputime.Process(j.cmd.Process.Pid) }

// RSS is the Java client JVM's resident memory in bytes now (Linux only).
func (j *JavaClient) RSS() (int64, error) { return cputime.RSS(j.cmd.Process.Pid) }

// Close ends the client: stdin closes, and a JVM that does not exit within 10 s is killed.
func (j *JavaClient) Close() error {
	j.stdin.Close()
	defer j.stdout.Close()
	select {
	case <-j.done:
	case <-time.After(10 * time.Second):
		_ = j.cmd.Process.Kill()
		<-j.done
	}
	return nil
}

func (j *JavaClient) block(ctx context.Context, command string, n int) ([]time.Duration, error) {
	if j.broken != nil {
		return nil, j.broken
	}
	out, err := j.exchange(ctx, command, n)
	if err != nil {
		j.broken = err
	}
	return out, err
}

func (j *JavaClient) exchange(ctx context.Context, command string, n int) ([]time.Duration, error) {
	rest, err := j.answer(ctx, command)
	if err != nil {
		return nil, err
	}
	line := "OK" + rest
	fields := strings.Fields(rest)
	if len(fields) != n {
		return nil, j.failure(command, line, fmt.Errorf("%d latencies, want %d", len(fields), n))
	}
	out := make([]time.Duration, n)
	for i, f := range fields {
		ns, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, j.failure(command, line, err)
		}
		out[i] = time.Duration(ns)
	}
	return out, nil
}

// readLine reads the client's next answer, giving up when ctx ends.
func (j *JavaClient) readLine(ctx context.Context) (string, error) {
	_ = j.stdout.SetReadDeadline(time.Time{})
	stop := context.AfterFunc(ctx, func() { _ = j.stdout.SetReadDeadline(time.Now()) })
	defer stop()
	line, err := j.lines.ReadString('\n')
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
			err = context.Cause(ctx)
		}
		return "", err
	}
	return strings.TrimSuffix(line, "\n"), nil
}

func (j *JavaClient) failure(what, answer string, err error) error {
	if err == nil {
		err = errors.New("failed")
	}
	if answer != "" {
		err = fmt.Errorf("%w: %s", err, truncate(answer, 300))
	}
	return fmt.Errorf("hbasetest: java client: %s: %w\n%s", what, err, j.stderr.String())
}
