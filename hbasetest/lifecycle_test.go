package hbasetest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestTwoClustersInParallel(t *testing.T) {
	needsJVM(t)
	var wg sync.WaitGroup
	clusters := make([]*Cluster, 2)
	errs := make([]error, 2)
	for i := range clusters {
		wg.Go(func() {
			clusters[i], errs[i] = Start(context.Background(), Options{Logger: testLogger(t)})
		})
	}
	wg.Wait()
	for i, c := range clusters {
		if c != nil {
			t.Cleanup(c.Stop)
		}
		if errs[i] != nil {
			t.Fatalf("cluster %d: %v", i, errs[i])
		}
	}
	if clusters[0].ZKQuorum == clusters[1].ZKQuorum || clusters[0].ControlAddr == clusters[1].ControlAddr {
		t.Fatalf("clusters share ports: %s %s", clusters[0].ZKQuorum, clusters[1].ZKQuorum)
	}
	ctx := testContext(t)
	// Each cluster has its own data: a table made in one is not in the other.
	if err := clusters[0].CreateTable(ctx, "only0", []string{"f"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := clusters[1].Regions(ctx, "only0"); err == nil {
		t.Fatal("table of cluster 0 visible in cluster 1")
	}
	for i, c := range clusters {
		st, err := c.Status(ctx)
		if err != nil || st.LiveRegionServers() != 1 {
			t.Fatalf("cluster %d status: %+v, %v", i, st, err)
		}
	}
	// SIGTERM stops one cluster (the JVM's shutdown hook); the other keeps serving.
	if err := syscall.Kill(clusters[0].Pid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitExited(t, clusters[0])
	if _, err := os.Stat(clusters[0].Dir + "/cluster"); !os.IsNotExist(err) {
		t.Errorf("data directory %s/cluster left behind after SIGTERM: %v", clusters[0].Dir, err)
	}
	if _, err := clusters[0].Status(ctx); !errors.Is(err, ErrStopped) {
		t.Errorf("command to a stopped cluster: %v, want ErrStopped", err)
	}
	if _, err := clusters[1].Status(ctx); err != nil {
		t.Fatal(err)
	}
	// The stop command answers OK, then the launcher exits; Stop cleans up the rest.
	if _, err := clusters[1].Command(ctx, "stop"); err != nil {
		t.Fatal(err)
	}
	waitExited(t, clusters[1])
	clusters[1].Stop()
	if _, err := os.Stat(clusters[1].Dir); !os.IsNotExist(err) {
		t.Errorf("directory %s left behind after Stop: %v", clusters[1].Dir, err)
	}
}

func waitExited(t *testing.T, c *Cluster) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(90 * time.Second):
		t.Fatalf("launcher %d still running", c.Pid())
	}
	if processAlive(c.Pid()) {
		t.Fatalf("JVM %d alive after its exit was reported", c.Pid())
	}
}

func TestPortInUse(t *testing.T) {
	needsJVM(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	start := time.Now()
	c, err := Start(context.Background(), Options{ZKPort: port, StartTimeout: 2 * time.Minute})
	if err == nil {
		c.Stop()
		t.Fatal("started with the ZooKeeper port in use")
	}
	var se *StartError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "in use") || !strings.Contains(err.Error(), strconv.Itoa(port)) {
		t.Fatalf("error does not say which port is in use: %v", err)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("took %s to fail", d)
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []Options{
		{Secure: true, Protection: "none"},
		{Secure: true, Protection: "privacy,none"},
		{RegionServers: 2, RegionServerPorts: []int{1234}},
		{HBaseVersion: "../../etc"},
		{ProxyUsers: []string{"alice"}}, // needs Secure
		{Secure: true, ProxyUsers: []string{"alice,bob"}},
	} {
		if c, err := Start(context.Background(), o); err == nil {
			c.Stop()
			t.Errorf("Start(%+v) succeeded", o)
		}
	}
}

// TestKilledParentLeavesNoJVM runs a child test binary that starts a cluster, SIGKILLs it and
// checks that the JVM goes away by itself.
func TestKilledParentLeavesNoJVM(t *testing.T) {
	needsJVM(t)
	if os.Getenv("HBASETEST_CHILD") == "1" {
		return // the child's work is in TestChildHoldsCluster
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildHoldsCluster$", "-test.v")
	cmd.Env = append(os.Environ(), "HBASETEST_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	pid, dir := 0, ""
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if _, err := fmt.Sscanf(strings.TrimSpace(sc.Text()), "CHILD-JVM %d %s", &pid, &dir); err == nil {
			break
		}
	}
	if pid == 0 {
		t.Fatal("child did not report its cluster")
	}
	if !processAlive(pid) {
		t.Fatalf("JVM %d not running while the child lives", pid)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	deadline := time.Now().Add(90 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("JVM %d still running 90s after its parent was killed", pid)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// The launcher removes its own data; the parent's temporary directory may remain empty.
	if _, err := os.Stat(dir + "/cluster"); !os.IsNotExist(err) {
		t.Errorf("cluster data %s/cluster left behind: %v", dir, err)
	}
	os.RemoveAll(dir)
}

// TestChildHoldsCluster is the child of TestKilledParentLeavesNoJVM.
func TestChildHoldsCluster(t *testing.T) {
	needsJVM(t)
	if os.Getenv("HBASETEST_CHILD") != "1" {
		t.Skip("only runs as the child of TestKilledParentLeavesNoJVM")
	}
	c := StartT(t, Options{})
	fmt.Printf("CHILD-JVM %d %s\n", c.Pid(), c.Dir)
	time.Sleep(10 * time.Minute) // until killed
}

func processAlive(pid int) bool {
	// A zombie is dead for our purpose; it only waits for its (killed) parent's reaper.
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}
