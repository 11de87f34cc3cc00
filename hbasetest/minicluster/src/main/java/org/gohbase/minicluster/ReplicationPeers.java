package org.gohbase.minicluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;

/**
 * The replication-peers command: the replication peers as the Java Admin reports them
 * (listReplicationPeers, each peer's ReplicationPeerConfig), so that a test compares them with
 * what go-hbase lists on the same cluster.
 *
 * <p>One word per field, key=value; "peer=" starts a peer. Strings are hex words (Hex, "-" for
 * empty); a table's families follow its name after ':', comma-separated (none: every family);
 * a map entry is key:value. Sets and maps are sorted, so the answer is the same every time.
 *
 * <pre>
 * peer=HEX enabled=BOOL key=HEX endpoint=HEX all=BOOL serial=BOOL bw=LONG
 *   ns=HEX... xns=HEX... tcf=TABLE:FAM,FAM... xtcf=... conf=K:V... data=K:V...
 * </pre>
 */
final class ReplicationPeers {
  private ReplicationPeers() {}

  static String list(Connection conn) throws Exception {
    List<ReplicationPeerDescription> peers;
    try (Admin admin = conn.getAdmin()) {
      peers = admin.listReplicationPeers();
    }
    List<String> w = new ArrayList<>();
    for (ReplicationPeerDescription d : peers) {
      ReplicationPeerConfig c = d.getPeerConfig();
      w.add("peer=" + hex(d.getPeerId()));
      w.add("enabled=" + d.isEnabled());
      w.add("key=" + hex(c.getClusterKey()));
      w.add("endpoint=" + hex(c.getReplicationEndpointImpl()));
      w.add("all=" + c.replicateAllUserTables());
      w.add("serial=" + c.isSerial());
      w.add("bw=" + c.getBandwidth());
      addSet(w, "ns=", c.getNamespaces());
      addSet(w, "xns=", c.getExcludeNamespaces());
      addTableCFs(w, "tcf=", c.getTableCFsMap());
      addTableCFs(w, "xtcf=", c.getExcludeTableCFsMap());
      for (Map.Entry<String, String> e : new TreeMap<>(c.getConfiguration()).entrySet()) {
        w.add("conf=" + hex(e.getKey()) + ":" + hex(e.getValue()));
      }
      TreeMap<String, String> data = new TreeMap<>();
      for (Map.Entry<byte[], byte[]> e : c.getPeerData().entrySet()) {
        data.put(Hex.encode(e.getKey()), Hex.encode(e.getValue()));
      }
      for (Map.Entry<String, String> e : data.entrySet()) {
        w.add("data=" + e.getKey() + ":" + e.getValue());
      }
    }
    return String.join(" ", w);
  }

  private static String hex(String s) {
    return Hex.encode(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
  }

  private static void addSet(List<String> w, String key, Collection<String> set) {
    if (set == null) {
      return;
    }
    for (String s : new TreeSet<>(set)) {
      w.add(key + hex(s));
    }
  }

  private static void addTableCFs(List<String> w, String key,
    Map<TableName, ? extends Collection<String>> m) {
    if (m == null) {
      return;
    }
    TreeMap<String, Collection<String>> sorted = new TreeMap<>();
    for (Map.Entry<TableName, ? extends Collection<String>> e : m.entrySet()) {
      sorted.put(e.getKey().getNameAsString(), e.getValue());
    }
    for (Map.Entry<String, Collection<String>> e : sorted.entrySet()) {
      StringBuilder b = new StringBuilder(key).append(hex(e.getKey())).append(':');
      if (e.getValue() != null) {
        List<String> fams = new ArrayList<>();
        for (String f : new TreeSet<>(e.getValue())) {
          fams.add(hex(f));
        }
        b.append(String.join(",", fams));
      }
      w.add(b.toString());
    }
  }
}
