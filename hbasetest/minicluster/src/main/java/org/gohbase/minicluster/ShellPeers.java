package org.gohbase.minicluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.replication.ReplicationPeerConfigUtil;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfigBuilder;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;

/**
 * The Java Admin calls that do what the HBase shell's replication commands do, for hbasectl's
 * corpus test (reached as "shell-java peer-..."), and the peers and peer-cluster tables as the
 * Java client reads them, to compare each side's.
 *
 * <pre>
 * peer-add ID FIELD...          addReplicationPeer; FIELD as below, plus state=DISABLED
 * peer-set ID FIELD...          getReplicationPeerConfig, edit, updateReplicationPeerConfig
 * peer-remove|peer-enable|peer-disable ID
 * peer-table-repl T true|false  enableTableReplication / disableTableReplication
 * peers ID|table:T...          each peer named: its state and configuration, sorted; each
 *                               table:T: T's families and regions on the peer cluster, or absent
 * FIELD: key=K endpoint=C all=B serial=B bw=N ns=A,B xns=A,B tcf=T@F,F;T xtcf=...
 *        conf=K:V data=K:V; ns+= ns-= xns+= xns-= tcf+= tcf-= xtcf+= xtcf-= append or remove
 *        (tcf+= and tcf-= through the Admin's own append and remove calls)
 * </pre>
 */
final class ShellPeers {
  private ShellPeers() {}

  static String run(MiniCluster mc, String[] w) throws Exception {
    String op = w[1];
    try (Admin admin = mc.adminConn.getAdmin()) {
      switch (op) {
        case "peer-add": {
          ReplicationPeerConfigBuilder b = ReplicationPeerConfig.newBuilder();
          boolean enabled = !Arrays.asList(w).contains("state=DISABLED");
          admin.addReplicationPeer(w[2], edit(admin, w[2], b, w, 3), enabled);
          return "";
        }
        case "peer-set": {
          ReplicationPeerConfig cur = admin.getReplicationPeerConfig(w[2]);
          ReplicationPeerConfig next = edit(admin, w[2], ReplicationPeerConfig.newBuilder(cur), w, 3);
          admin.updateReplicationPeerConfig(w[2], next);
          return "";
        }
        case "peer-remove":
          admin.removeReplicationPeer(w[2]);
          return "";
        case "peer-enable":
          admin.enableReplicationPeer(w[2]);
          return "";
        case "peer-disable":
          admin.disableReplicationPeer(w[2]);
          return "";
        case "peer-table-repl":
          if (Boolean.parseBoolean(w[3])) {
            admin.enableTableReplication(TableName.valueOf(w[2]));
          } else {
            admin.disableTableReplication(TableName.valueOf(w[2]));
          }
          return "";
        case "peers":
          return peers(mc, admin, Arrays.copyOfRange(w, 2, w.length));
        default:
          throw new Commands.UsageException("shell-java: unknown peer operation " + op);
      }
    }
  }

  /** Applies the FIELD words of w from index i to b; the += and -= forms read b's state. */
  private static ReplicationPeerConfig edit(Admin admin, String id, ReplicationPeerConfigBuilder b,
    String[] w, int i) throws Exception {
    ReplicationPeerConfig cur = b.build();
    for (; i < w.length; i++) {
      String[] kv = w[i].split("=", 2);
      String k = kv[0];
      String v = kv.length > 1 ? kv[1] : "";
      switch (k) {
        case "state": break;
        case "key": b.setClusterKey(v); break;
        case "endpoint": b.setReplicationEndpointImpl(v); break;
        case "all": b.setReplicateAllUserTables(Boolean.parseBoolean(v)); break;
        case "serial": b.setSerial(Boolean.parseBoolean(v)); break;
        case "bw": b.setBandwidth(Long.parseLong(v)); break;
        case "ns": b.setNamespaces(set(v)); break;
        case "xns": b.setExcludeNamespaces(set(v)); break;
        case "ns+": b.setNamespaces(union(cur.getNamespaces(), set(v), true)); break;
        case "ns-": b.setNamespaces(union(cur.getNamespaces(), set(v), false)); break;
        case "xns+": b.setExcludeNamespaces(union(cur.getExcludeNamespaces(), set(v), true)); break;
        case "xns-": b.setExcludeNamespaces(union(cur.getExcludeNamespaces(), set(v), false)); break;
        case "tcf": b.setTableCFsMap(tableCFs(v)); break;
        case "xtcf": b.setExcludeTableCFsMap(tableCFs(v)); break;
        case "tcf+": admin.appendReplicationPeerTableCFs(id, tableCFs(v)); return admin.getReplicationPeerConfig(id);
        case "tcf-": admin.removeReplicationPeerTableCFs(id, tableCFs(v)); return admin.getReplicationPeerConfig(id);
        case "xtcf+":
          return ReplicationPeerConfigUtil.appendExcludeTableCFsToReplicationPeerConfig(tableCFs(v), cur);
        case "xtcf-":
          return ReplicationPeerConfigUtil.removeExcludeTableCFsFromReplicationPeerConfig(tableCFs(v), cur, id);
        case "conf": {
          String[] p = v.split(":", 2);
          b.putConfiguration(p[0], p[1]);
          break;
        }
        case "data": {
          String[] p = v.split(":", 2);
          b.putPeerData(p[0].getBytes(StandardCharsets.UTF_8), p[1].getBytes(StandardCharsets.UTF_8));
          break;
        }
        default:
          throw new Commands.UsageException("shell-java: unknown peer field " + w[i]);
      }
      cur = b.build();
    }
    return b.build();
  }

  private static Set<String> set(String v) {
    return v.isEmpty() ? new LinkedHashSet<>() : new LinkedHashSet<>(Arrays.asList(v.split(",")));
  }

  private static Set<String> union(Set<String> cur, Set<String> v, boolean add) {
    Set<String> out = cur == null ? new LinkedHashSet<>() : new LinkedHashSet<>(cur);
    if (add) {
      out.addAll(v);
    } else {
      out.removeAll(v);
    }
    return out;
  }

  /** T@F,F;T: a table without '@' ships every family. */
  private static Map<TableName, List<String>> tableCFs(String v) {
    Map<TableName, List<String>> m = new HashMap<>();
    for (String e : v.split(";")) {
      if (e.isEmpty()) {
        continue;
      }
      String[] p = e.split("@", 2);
      m.put(TableName.valueOf(p[0]), p.length > 1 ? new ArrayList<>(Arrays.asList(p[1].split(","))) : null);
    }
    return m;
  }

  private static String peers(MiniCluster mc, Admin admin, String[] ids) throws Exception {
    Map<String, ReplicationPeerDescription> byId = new HashMap<>();
    for (ReplicationPeerDescription d : admin.listReplicationPeers()) {
      byId.put(d.getPeerId(), d);
    }
    List<String> out = new ArrayList<>();
    for (String id : ids) {
      if (id.startsWith("table:")) {
        out.add(id + " " + peerTable(mc, TableName.valueOf(id.substring(6))));
        continue;
      }
      ReplicationPeerDescription d = byId.get(id);
      if (d == null) {
        out.add(id + " absent");
        continue;
      }
      ReplicationPeerConfig c = d.getPeerConfig();
      StringBuilder b = new StringBuilder(id).append(" enabled=").append(d.isEnabled())
        .append(" key=").append(c.getClusterKey()).append(" endpoint=").append(c.getReplicationEndpointImpl())
        .append(" all=").append(c.replicateAllUserTables()).append(" serial=").append(c.isSerial())
        .append(" bw=").append(c.getBandwidth())
        .append(" ns=").append(sorted(c.getNamespaces())).append(" xns=").append(sorted(c.getExcludeNamespaces()))
        .append(" tcf=").append(sorted(c.getTableCFsMap())).append(" xtcf=").append(sorted(c.getExcludeTableCFsMap()))
        .append(" conf=").append(new TreeMap<>(c.getConfiguration()));
      TreeMap<String, String> data = new TreeMap<>();
      c.getPeerData().forEach((k, v) -> data.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8)));
      out.add(b.append(" data=").append(data).toString());
    }
    return String.join("; ", out);
  }

  /** A set as a sorted list; null and empty are the same (the Go client cannot tell them apart). */
  private static String sorted(Collection<String> s) {
    return s == null ? "[]" : new TreeSet<>(s).toString();
  }

  private static String sorted(Map<TableName, ? extends Collection<String>> m) {
    TreeMap<String, String> out = new TreeMap<>();
    if (m != null) {
      m.forEach((t, f) -> out.put(t.getNameAsString(), sorted(f)));
    }
    return out.toString();
  }

  private static String peerTable(MiniCluster mc, TableName tn) throws Exception {
    if (mc.peer == null) {
      throw new Commands.UsageException("shell-java: no peer cluster (--peer-cluster)");
    }
    Connection conn = mc.peer.util.getConnection();
    try (Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(tn)) {
        return "absent";
      }
      TableDescriptor td = admin.getDescriptor(tn);
      List<String> fams = new ArrayList<>();
      for (ColumnFamilyDescriptor f : td.getColumnFamilies()) {
        fams.add(f.getNameAsString());
      }
      return "families=" + fams + " regions=" + admin.getRegions(tn).size();
    }
  }
}
