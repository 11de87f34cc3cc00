package org.gohbase.minicluster;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessor;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.net.Address;
import org.apache.hadoop.hbase.rsgroup.RSGroupAdminClient;
import org.apache.hadoop.hbase.rsgroup.RSGroupInfo;
import org.apache.hadoop.hbase.rsgroup.RSGroupInfoManager;

/**
 * Region server groups as HBase 2.x has them (the hbase-rsgroup module): the configuration
 * that switches them on (--rsgroups), and the rsgroups command, every group as the Java
 * RSGroupAdminClient lists it, by name, one word per group:
 * group=NAME,SERVERS,TABLES,CONFIG, each in hex: the servers "host:port" and the tables sorted
 * and joined with ';', the configuration as name=value;... sorted by name.
 */
final class RSGroupCommands {
  static final String ENDPOINT = "org.apache.hadoop.hbase.rsgroup.RSGroupAdminEndpoint";
  static final String BALANCER = "org.apache.hadoop.hbase.rsgroup.RSGroupBasedLoadBalancer";

  private RSGroupCommands() {
  }

  /** Loads the group endpoint on the master (after any master coprocessor already set). */
  static void configure(Configuration c) {
    String cps = c.get("hbase.coprocessor.master.classes", "");
    c.set("hbase.coprocessor.master.classes", cps.isEmpty() ? ENDPOINT : cps + "," + ENDPOINT);
    c.set("hbase.master.loadbalancer.class", BALANCER);
  }

  /**
   * Waits until the master's group manager is online: until then it refuses table creation
   * ("Only servers in default group can be updated during offline mode"). Its state is not
   * public; the endpoint's package-private getGroupInfoManager is read by reflection.
   */
  static void awaitOnline(MiniCluster mc) throws Exception {
    long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      HMaster m = mc.master();
      MasterCoprocessor cp = m == null ? null : m.getMasterCoprocessorHost().findCoprocessor(ENDPOINT);
      if (cp != null) {
        Method get = cp.getClass().getDeclaredMethod("getGroupInfoManager");
        get.setAccessible(true);
        RSGroupInfoManager mgr = (RSGroupInfoManager) get.invoke(cp);
        if (mgr != null && mgr.isOnline()) {
          return;
        }
      }
      if (System.nanoTime() > end) {
        throw new TimeoutException("the rsgroup manager did not come online in 2 minutes");
      }
      Thread.sleep(100);
    }
  }

  static String list(MiniCluster mc, String[] w) throws Exception {
    if (w.length != 1) {
      throw new Commands.UsageException("rsgroups: wrong number of arguments (" + (w.length - 1) + ")");
    }
    List<RSGroupInfo> groups = new ArrayList<>(new RSGroupAdminClient(mc.adminConn).listRSGroups());
    groups.sort((a, b) -> a.getName().compareTo(b.getName()));
    StringBuilder b = new StringBuilder();
    for (RSGroupInfo g : groups) {
      TreeSet<String> servers = new TreeSet<>();
      for (Address a : g.getServers()) {
        servers.add(a.getHostname() + ":" + a.getPort());
      }
      TreeSet<String> tables = new TreeSet<>();
      for (TableName t : g.getTables()) {
        tables.add(t.getNameAsString());
      }
      StringBuilder conf = new StringBuilder();
      for (Map.Entry<String, String> e : new TreeMap<>(g.getConfiguration()).entrySet()) {
        conf.append(conf.length() > 0 ? ";" : "").append(e.getKey()).append('=').append(e.getValue());
      }
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append("group=").append(hex(g.getName())).append(',').append(hex(String.join(";", servers)))
        .append(',').append(hex(String.join(";", tables))).append(',').append(hex(conf.toString()));
    }
    return b.toString();
  }

  private static String hex(String s) {
    return Hex.encode(s.getBytes(StandardCharsets.UTF_8));
  }
}
