package main

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/go-hbase/hbase/hbasetest"
)

// clusterPlan is one local cluster and the modes measured against it.
type clusterPlan struct {
	Secure     bool
	Protection string // hbase.rpc.protection; a comma list lets each client pick its QoP
	AES        bool
	TLS        bool // TLS beside plaintext on the same ports (the tls mode of -compare-security)
	Modes      []mode
}

// planClusters decides which local clusters a run needs: one. With -compare-security its
// hbase.rpc.protection lists every QoP the modes ask for ("authentication,privacy", AES on), so
// the three modes interleave against the very same servers and each client picks its own QoP.
func planClusters(c *config) []clusterPlan {
	modes := modesFor(c)
	if !c.CompareSecurity {
		s := c.Security
		return []clusterPlan{{Secure: s.Kerberos, Protection: s.Protection, AES: s.AES, Modes: modes}}
	}
	var prots []string
	for _, m := range modes {
		if !slices.Contains(prots, m.Security.Protection) {
			prots = append(prots, m.Security.Protection)
		}
	}
	return []clusterPlan{{Secure: true, Protection: strings.Join(prots, ","), AES: true, TLS: true, Modes: modes}}
}

// localCluster is a running hbasetest cluster with the benchmark table created.
type localCluster struct {
	*hbasetest.Cluster
}

// startLocal starts the cluster of plan and creates the pre-split table.
func startLocal(ctx context.Context, c *config, plan clusterPlan, log *slog.Logger) (*localCluster, error) {
	opts := hbasetest.Options{
		RegionServers: c.RegionServers,
		Secure:        plan.Secure,
		Protection:    plan.Protection,
		AES:           plan.AES,
		TLS:           plan.TLS,
		StartTimeout:  c.StartTimeout,
		FullJIT:       true, // measure the server as it runs in production, not a quick-start JVM
		Logger:        log.With("component", "hbasetest"),
	}
	opts.TLSAllowPlaintext = plan.TLS
	log.Info("starting local HBase", "cluster", describePlan(plan), "regionservers", opts.RegionServers)
	began := time.Now()
	hc, err := hbasetest.Start(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("start local cluster: %w", err)
		}
		return nil, startErrorf("start local cluster: %v", err)
	}
	lc := &localCluster{hc}
	splits, err := c.tableSplits()
	if err != nil {
		lc.stop(log)
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := hc.CreateTable(cctx, c.Table, []string{c.Family}, splits); err != nil {
		lc.stop(log)
		return nil, fmt.Errorf("create table %s with %d regions: %w", c.Table, c.Regions, err)
	}
	log.Info("local HBase ready", "zk", hc.ZKQuorum, "table", c.Table, "regions", c.Regions, "took", time.Since(began).Round(time.Millisecond))
	return lc, nil
}

// withCredentials fills the connection settings of c and of modes from the cluster.
func (lc *localCluster) withCredentials(c *config, modes []mode) (*config, []mode, error) {
	cc := *c
	cc.ZKQuorum, cc.ZNodeParent = lc.ZKQuorum, lc.ZNodeParent
	cc.serverCPU = lc.CPUTime
	out := slices.Clone(modes)
	for i := range out {
		s := &out[i].Security
		if s.Kerberos {
			s.Principal, s.Keytab, s.KRB5Conf, s.ServerPrincipal = lc.ClientPrincipal, lc.Keytab, lc.KRB5Conf, lc.ServerPrincipal
		}
		if s.TLS {
			tc, err := lc.TLS.TLSConfig()
			if err != nil {
				return nil, nil, err
			}
			s.TLSConfig = tc
		}
	}
	return &cc, out, nil
}

func (lc *localCluster) stop(log *slog.Logger) {
	log.Info("stopping local HBase")
	lc.Stop()
}

func describePlan(p clusterPlan) string {
	if !p.Secure {
		return "simple"
	}
	return fmt.Sprintf("kerberos, protection=%s, aes=%v, tls=%v", p.Protection, p.AES, p.TLS)
}
