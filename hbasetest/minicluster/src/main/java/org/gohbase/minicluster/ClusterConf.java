package org.gohbase.minicluster;

import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.security.authorize.ProxyUsers;

/** Configuration of a small cluster on 127.0.0.1 that starts fast on 2 cores. */
final class ClusterConf {
  private ClusterConf() {}

  static Configuration create(LauncherArgs a, Kdc kdc) {
    Configuration c = HBaseConfiguration.create();
    c.set("hadoop.tmp.dir", new File(a.dir, "hadoop-tmp").getPath());
    c.set("hbase.tmp.dir", new File(a.dir, "hbase-tmp").getPath());
    // Local filesystem; its output streams lack hflush/hsync capabilities.
    c.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    // Hadoop's shutdown hook would otherwise close the filesystem under the stopping cluster.
    c.setBoolean("fs.automatic.close", false);

    // Everything on loopback, advertised as "localhost" (the host part of hbase/localhost).
    c.set("hbase.master.hostname", "localhost");
    c.set("hbase.unsafe.regionserver.hostname", "localhost");
    c.set("hbase.master.ipc.address", "127.0.0.1");
    c.set("hbase.regionserver.ipc.address", "127.0.0.1");
    c.set("hbase.zookeeper.quorum", "127.0.0.1");
    c.setInt("hbase.master.port", a.masterPort);
    c.setInt("hbase.master.info.port", -1);
    c.setInt("hbase.regionserver.info.port", -1);
    c.setBoolean("hbase.regionserver.info.port.auto", false);

    // Few threads: 2 cores, several clusters at once.
    c.setInt("hbase.regionserver.handler.count", 8);
    c.setInt("hbase.master.handler.count", 5);
    c.setInt("hbase.regionserver.metahandler.count", 2);
    c.setInt("hbase.regionserver.replication.handler.count", 1);
    c.setInt("hbase.netty.eventloop.rpcserver.thread.count", 2);
    c.setInt("hbase.regionserver.executor.openregion.threads", 2);
    c.setInt("hbase.regionserver.executor.closeregion.threads", 2);
    c.setInt("hbase.regionserver.thread.compaction.small", 1);
    c.setInt("hbase.regionserver.thread.compaction.large", 1);
    c.setInt("hbase.master.procedure.threads", 4);
    c.setInt("hbase.hstore.flusher.count", 1);

    // Quick reaction to dead servers and finished procedures.
    c.setInt("hbase.regionserver.msginterval", 1000);
    c.setInt("zookeeper.session.timeout", 20000);
    c.setInt("hbase.master.wait.on.regionservers.interval", 500);
    // Killing a region server arms a timer (hbase.regionserver.abort.timeout, 20 minutes) whose
    // default task halts the JVM, and HBase 2.6.1 runs it even after the abort has finished:
    // 20 minutes after a test's first kill the whole mini cluster, ZooKeeper included, was gone
    // mid-test. The task only logs here, and after 5 s so that every kill runs it.
    c.set("hbase.regionserver.abort.timeout.task", LogAbortTimeout.class.getName());
    c.setLong("hbase.regionserver.abort.timeout", 5_000);
    // A stopped or killed server's replication queues (the region replicas' peer, any other
    // peer) are claimed by a live server only after this sleep plus up to as much again at
    // random: 30 to 60 s by default, which every stop or kill on a cluster with a peer waited
    // for. HBase's own replication tests use one or two seconds.
    c.setLong("replication.sleep.before.failover", 1_000);

    // No background moves: tests place regions themselves (the balance command switches the
    // balancer on for one run).
    c.setInt("hbase.balancer.period", 3_600_000);
    c.setInt("hbase.master.cleaner.interval", 3_600_000);
    c.setInt("hbase.regionserver.compaction.check.period", 3_600_000);
    // Files a compaction replaced are removed within a second, not two minutes: until then a
    // split's daughter still holds references to its parent and cannot split again.
    c.setInt("hbase.hfile.compaction.discharger.interval", 1000);

    if (a.secure) {
      String principal = kdc.serverPrincipal();
      String keytab = kdc.serverKeytab.getPath();
      c.set("hadoop.security.authentication", "kerberos");
      c.set("hbase.security.authentication", "kerberos");
      c.set("hbase.master.kerberos.principal", principal);
      c.set("hbase.master.keytab.file", keytab);
      c.set("hbase.regionserver.kerberos.principal", principal);
      c.set("hbase.regionserver.keytab.file", keytab);
      c.set("hbase.rpc.protection", a.protection);
      c.setBoolean("hbase.rpc.crypto.encryption.aes.enabled", a.aes);
      if (!a.proxyUsers.isEmpty()) {
        String client = kdc.clientPrincipal().split("[/@]")[0];
        c.set("hadoop.proxyuser." + client + ".hosts", "*");
        c.set("hadoop.proxyuser." + client + ".users", String.join(",", a.proxyUsers));
        // HBase checks the proxyuser rules only with service-level authorization on;
        // without it any authenticated principal may act for anyone.
        c.setBoolean("hadoop.security.authorization", true);
        // The RPC servers check doAs against this JVM-wide list, which would otherwise be read
        // from a core-site.xml on the class path.
        ProxyUsers.refreshSuperUserGroupsConfiguration(c);
      }
    }
    if (a.tlsDir != null) {
      // HBase 2.6 native TLS on every RPC server, plaintext refused, client certificates
      // required; the servers (and the launcher's client) are TLS clients of each other with
      // the same certificate.
      String keystore = new File(a.tlsDir, "server-keystore.pem").getPath();
      String ca = new File(a.tlsDir, "ca.pem").getPath();
      c.setBoolean("hbase.server.netty.tls.enabled", true);
      c.setBoolean("hbase.server.netty.tls.supportplaintext", a.tlsAllowPlaintext);
      c.set("hbase.server.netty.tls.client.auth.mode", "NEED");
      c.setBoolean("hbase.server.netty.tls.verify.client.hostname", false);
      c.setBoolean("hbase.client.netty.tls.enabled", true);
      c.set("hbase.rpc.tls.keystore.location", keystore);
      c.set("hbase.rpc.tls.keystore.type", "PEM");
      c.set("hbase.rpc.tls.truststore.location", ca);
      c.set("hbase.rpc.tls.truststore.type", "PEM");
    }
    if (a.quotas) {
      // The master creates hbase:quota at startup; each region server checks every RPC
      // against the limiters its QuotaCache refreshes from that table.
      c.setBoolean("hbase.quota.enabled", true);
      c.setInt("hbase.quota.refresh.period", 1000);
    }
    if (a.rsgroups) {
      RSGroupCommands.configure(c);
    }
    if (a.poisonReleasedBuffers) {
      c.set("hbase.netty.rpcserver.allocator", PoisonReleasedBuffers.class.getName());
    }
    if (a.peerCluster) {
      PeerCluster.tuneSource(c);
    }
    // On every region, inert until the slow-reads command names a server.
    c.set("hbase.coprocessor.region.classes", SlowReads.class.getName());
    SecurityConf.apply(c, a, kdc);
    for (java.util.Map.Entry<String, String> e : a.conf.entrySet()) {
      c.set(e.getKey(), e.getValue());
    }
    return c;
  }

  /**
   * The launcher's own client. A short pause because admin calls poll their procedures with
   * pause times a backoff factor (a 5 s procedure is seen done after 8 s with the default
   * 100 ms); bounded retries so a bad command fails fast. In secure mode it asks for the
   * strongest QoP the servers offer.
   */
  static Configuration client(Configuration cluster, LauncherArgs a) {
    Configuration c = new Configuration(cluster);
    if (a.secure) {
      c.set("hbase.rpc.protection", LauncherArgs.strongestProtection(a.protection));
    }
    c.setInt("hbase.client.retries.number", 15);
    c.setInt("hbase.client.pause", 20);
    c.setInt("hbase.client.operation.timeout", 60_000);
    c.setInt("hbase.rpc.timeout", 30_000);
    c.setInt("hbase.client.meta.operation.timeout", 30_000);
    return c;
  }
}
