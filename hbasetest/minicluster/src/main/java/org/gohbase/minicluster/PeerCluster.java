package org.gohbase.minicluster;

import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A second HBase cluster in the launcher's JVM, the destination of replication tests
 * (--peer-cluster): its own master and region server, on free ports, sharing the first
 * cluster's mini ZooKeeper under another parent znode, as HBase's own replication tests run
 * their peer (TestReplicationBase). No second JVM, no second ZooKeeper. Plain clusters only.
 */
final class PeerCluster {
  private static final Logger LOG = LoggerFactory.getLogger(PeerCluster.class);

  /** The peer's zookeeper.znode.parent under the shared ZooKeeper. */
  static final String ZNODE = "/hbase-peer";

  final HBaseTestingUtility util;
  final MiniHBaseCluster cluster;

  private PeerCluster(HBaseTestingUtility util, MiniHBaseCluster cluster) {
    this.util = util;
    this.cluster = cluster;
  }

  /**
   * Replication settings of the source cluster's configuration (ClusterConf.create): a source
   * whose peer was disabled or could not be reached retries after 100 ms and at most 1 s
   * (HBase waits 1 s times up to 300), so that an enabled peer ships within a second or two and
   * a test's "not replicated" wait can be short and still convincing.
   */
  static void tuneSource(Configuration c) {
    c.setLong("replication.source.sleepforretries", 100);
    c.setInt("replication.source.maxretriesmultiplier", 10);
    c.setInt("replication.sink.client.retries.number", 10);
    c.setInt("replication.sink.client.ops.timeout", 20_000);
  }

  /** Starts the peer cluster on the ZooKeeper of source. */
  static PeerCluster start(HBaseTestingUtility source, LauncherArgs a) throws Exception {
    // The launcher's settings (ClusterConf, with tuneSource), then the peer's own.
    Configuration conf = ClusterConf.create(a, null);
    conf.set("zookeeper.znode.parent", ZNODE);
    conf.set("hadoop.tmp.dir", new File(a.dir, "peer-hadoop-tmp").getPath());
    conf.set("hbase.tmp.dir", new File(a.dir, "peer-hbase-tmp").getPath());
    // Free ports: clients find the peer through ZooKeeper, not through fixed ports.
    conf.setInt("hbase.master.port", 0);
    conf.setInt("hbase.regionserver.port", 0);
    conf.setBoolean("hbase.localcluster.assign.random.ports", true);
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    util.setZkCluster(source.getZkCluster());
    StartMiniClusterOption opt = StartMiniClusterOption.builder()
      .numMasters(1)
      .numRegionServers(1)
      .numDataNodes(0)
      .createRootDir(true)
      .build();
    long t0 = System.nanoTime();
    MiniHBaseCluster cluster = util.startMiniHBaseCluster(opt);
    LOG.info("peer cluster ready under {} in {} ms", ZNODE, (System.nanoTime() - t0) / 1_000_000);
    return new PeerCluster(util, cluster);
  }

  /** The READY line's fields of the peer: its ZooKeeper quorum and parent znode. */
  String readyFields() {
    return " peer_zk=127.0.0.1:" + util.getZkCluster().getClientPort() + " peer_znode=" + ZNODE;
  }

  /** Stops the peer's HBase (not the shared ZooKeeper); errors are logged. */
  void stop() {
    try {
      util.shutdownMiniHBaseCluster();
    } catch (Throwable t) {
      LOG.warn("stopping the peer cluster", t);
    }
  }

  /** Stops p, if there is one. */
  static void stopQuietly(PeerCluster p) {
    if (p != null) {
      p.stop();
    }
  }
}
