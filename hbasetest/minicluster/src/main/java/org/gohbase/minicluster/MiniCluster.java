package org.gohbase.minicluster;

import java.io.File;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HBase mini cluster: ZooKeeper, a master and region servers in this JVM, plus the
 * launcher's client connections. Region servers live in fixed slots: slot i always uses the
 * i-th port.
 */
final class MiniCluster {
  private static final Logger LOG = LoggerFactory.getLogger(MiniCluster.class);

  final LauncherArgs args;
  final Kdc kdc;
  final HBaseTestingUtility util;
  final MiniHBaseCluster cluster;
  final Configuration clientConf;
  /** Admin connection, as the cluster's own principal in secure mode. */
  final Connection adminConn;
  /** Data connection (put/get/scan), as the client principal in secure mode. */
  final Connection dataConn;
  /** Last start code seen per slot, reported for dead servers. */
  final long[] lastStartCode;
  /** The replication tests' second cluster (--peer-cluster), or null. */
  final PeerCluster peer;
  /** stopZooKeeper ran: stop leaves HBase to the launcher's halt. */
  private volatile boolean zkStopped;

  MiniCluster(LauncherArgs a) throws Exception {
    this.args = a;
    if (!a.dir.mkdirs() && !a.dir.isDirectory()) {
      throw new IOException("cannot create " + a.dir);
    }
    // HBaseTestingUtility puts its data under this directory (default: ./target/test-data).
    System.setProperty("test.build.data.basedirectory", new File(a.dir, "data").getPath());
    this.kdc = a.secure ? new Kdc(a.dir) : null;
    LiveSite.install();
    Configuration conf = ClusterConf.create(a, kdc);
    if (a.secure) {
      UserGroupInformation.setConfiguration(conf);
      UserGroupInformation.loginUserFromKeytab(kdc.serverPrincipal(), kdc.serverKeytab.getPath());
    }
    util = new HBaseTestingUtility(conf);
    util.startMiniZKCluster(1, a.zkPort);
    int zkPort = util.getZkCluster().getClientPort();
    if (zkPort != a.zkPort) {
      throw new IOException("ZooKeeper came up on port " + zkPort + ", not " + a.zkPort);
    }
    StartMiniClusterOption opt = StartMiniClusterOption.builder()
      .numMasters(1)
      .numRegionServers(a.rsPorts.size())
      .rsPorts(a.rsPorts)
      .numDataNodes(0)
      .createRootDir(true)
      .build();
    cluster = util.startMiniHBaseCluster(opt);
    lastStartCode = new long[a.rsPorts.size()];
    for (int i = 0; i < lastStartCode.length; i++) {
      HRegionServer rs = regionServer(i);
      if (rs == null) {
        throw new IOException("region server " + i + " did not start on port " + a.rsPorts.get(i));
      }
      lastStartCode[i] = rs.getServerName().getStartcode();
    }
    SecurityConf.waitReady(util, a);
    clientConf = ClusterConf.client(util.getConfiguration(), a);
    adminConn = ConnectionFactory.createConnection(clientConf);
    if (a.secure) {
      UserGroupInformation ugi = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
        kdc.clientPrincipal(), kdc.clientKeytab.getPath());
      dataConn = ugi.doAs((PrivilegedExceptionAction<Connection>) () ->
        ConnectionFactory.createConnection(clientConf));
    } else {
      dataConn = adminConn;
    }
    try (Admin admin = adminConn.getAdmin()) {
      admin.balancerSwitch(false, true);
    }
    peer = a.peerCluster ? PeerCluster.start(util, a) : null;
    if (a.rsgroups) {
      RSGroupCommands.awaitOnline(this);
    }
  }

  String zkQuorum() {
    return "127.0.0.1:" + util.getZkCluster().getClientPort();
  }

  String znodeParent() {
    return clientConf.get("zookeeper.znode.parent", "/hbase");
  }

  int slots() {
    return args.rsPorts.size();
  }

  /** The running region server of slot i, or null. */
  HRegionServer regionServer(int slot) {
    int port = args.rsPorts.get(slot);
    for (JVMClusterUtil.RegionServerThread t : cluster.getLiveRegionServerThreads()) {
      HRegionServer rs = t.getRegionServer();
      if (rs.getServerName() != null && rs.getServerName().getPort() == port && !rs.isStopped()
        && !rs.isAborted()) {
        return rs;
      }
    }
    return null;
  }

  /** The slot of a server name, or -1. */
  int slotOf(ServerName sn) {
    if (sn == null) {
      return -1;
    }
    return args.rsPorts.indexOf(sn.getPort());
  }

  /** The active master, or null. */
  HMaster master() {
    for (JVMClusterUtil.MasterThread t : cluster.getLiveMasterThreads()) {
      HMaster m = t.getMaster();
      if (m.isActiveMaster() && !m.isStopped() && !m.isAborted()) {
        return m;
      }
    }
    return null;
  }

  List<JVMClusterUtil.MasterThread> liveMasterThreads() {
    return cluster.getLiveMasterThreads();
  }

  /**
   * Stops ZooKeeper under the running servers (the stop-zk command). They serve on, but an
   * orderly shutdown then waits on ZooKeeper, and so does the JVM's exit (its shutdown hooks),
   * so stop leaves them and the launcher halts the JVM.
   */
  void stopZooKeeper() throws IOException {
    zkStopped = true;
    util.getZkCluster().shutdown();
  }

  boolean zooKeeperStopped() {
    return zkStopped;
  }

  /** Stops everything. Errors are logged: a stop must get as far as it can. */
  void stop() {
    closeQuietly(dataConn);
    if (dataConn != adminConn) {
      closeQuietly(adminConn);
    }
    if (zkStopped) {
      LOG.info("ZooKeeper was stopped: not shutting HBase down in order");
      stopKdc();
      return;
    }
    PeerCluster.stopQuietly(peer);
    try {
      util.shutdownMiniHBaseCluster();
    } catch (Throwable t) {
      LOG.warn("stopping HBase", t);
    }
    try {
      util.shutdownMiniZKCluster();
    } catch (Throwable t) {
      LOG.warn("stopping ZooKeeper", t);
    }
    stopKdc();
  }

  private void stopKdc() {
    if (kdc != null) {
      try {
        kdc.stop();
      } catch (Throwable t) {
        LOG.warn("stopping the KDC", t);
      }
    }
  }

  private static void closeQuietly(Connection c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Throwable t) {
      LOG.warn("closing a connection", t);
    }
  }
}
