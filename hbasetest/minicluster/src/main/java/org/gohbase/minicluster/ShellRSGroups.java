package org.gohbase.minicluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BalanceRequest;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.net.Address;
import org.apache.hadoop.hbase.rsgroup.RSGroupAdminClient;
import org.apache.hadoop.hbase.rsgroup.RSGroupInfo;

/**
 * The RSGroupAdminClient calls that do what the HBase 2.x shell's rsgroup commands do, for
 * hbasectl's corpus test ("shell-java rsg-..."), and the state it compares: "shell-java
 * rsgroups-of PREFIX", the groups whose name starts with PREFIX as RSGroupAdminClient lists
 * them, each as NAME{servers=[...] tables=[...] conf={...}}, sorted. Servers are "host:port";
 * a namespace word stands for every table of the namespace, as the shell reads it.
 */
final class ShellRSGroups {
  private ShellRSGroups() {}

  static String run(Connection conn, String[] w) throws Exception {
    RSGroupAdminClient rsg = new RSGroupAdminClient(conn);
    switch (w[1]) {
      case "rsg-add":
        rsg.addRSGroup(w[2]);
        return "";
      case "rsg-remove":
        rsg.removeRSGroup(w[2]);
        return "";
      case "rsg-rename":
        rsg.renameRSGroup(w[2], w[3]);
        return "";
      case "rsg-balance":
        return Boolean.toString(rsg.balanceRSGroup(w[2], BalanceRequest.defaultInstance()).isBalancerRan());
      case "rsg-update-config":
        rsg.updateConfiguration(w[2]);
        return "";
      case "rsg-move-servers":
        // rsg-move-servers G S,S
        rsg.moveServers(servers(w[3]), w[2]);
        return "";
      case "rsg-move-tables":
        // rsg-move-tables G T,T
        rsg.moveTables(tables(w[3]), w[2]);
        return "";
      case "rsg-move-namespaces":
        rsg.moveTables(namespaceTables(conn, w[3]), w[2]);
        return "";
      case "rsg-move-both":
        // rsg-move-both G S,S T,T: servers and tables in one moveServersAndTables.
        rsg.moveServersAndTables(servers(w[3]), tables(w[4]), w[2]);
        return "";
      case "rsg-move-both-ns":
        // rsg-move-both-ns G S,S NS,NS: servers and the namespaces' tables in one call.
        rsg.moveServersAndTables(servers(w[3]), namespaceTables(conn, w[4]), w[2]);
        return "";
      case "rsg-remove-servers":
        rsg.removeServers(servers(w[2]));
        return "";
      case "rsg-config": {
        // rsg-config G [+K:V | -K]...: the shell's alter_rsgroup_config, set and unset.
        Map<String, String> conf = new HashMap<>(rsg.getRSGroupInfo(w[2]).getConfiguration());
        for (int i = 3; i < w.length; i++) {
          if (w[i].startsWith("-")) {
            conf.remove(w[i].substring(1));
          } else {
            String[] kv = w[i].substring(1).split(":", 2);
            conf.put(kv[0], kv[1]);
          }
        }
        rsg.updateRSGroupConfig(w[2], conf);
        return "";
      }
      case "rsgroups-of":
        return list(rsg, w[2]);
      default:
        throw new Commands.UsageException("shell-java: unknown rsgroup operation " + w[1]);
    }
  }

  private static Set<Address> servers(String words) {
    Set<Address> out = new HashSet<>();
    for (String s : words.split(",")) {
      out.add(Address.fromString(s));
    }
    return out;
  }

  private static Set<TableName> tables(String words) {
    Set<TableName> out = new HashSet<>();
    for (String s : words.split(",")) {
      out.add(TableName.valueOf(s));
    }
    return out;
  }

  private static Set<TableName> namespaceTables(Connection conn, String words) throws Exception {
    Set<TableName> out = new HashSet<>();
    try (Admin admin = conn.getAdmin()) {
      for (String ns : words.split(",")) {
        admin.getNamespaceDescriptor(ns); // NamespaceNotFoundException, as the shell checks
        for (TableName t : admin.listTableNamesByNamespace(ns)) {
          out.add(t);
        }
      }
    }
    return out;
  }

  private static String list(RSGroupAdminClient rsg, String prefix) throws Exception {
    List<String> out = new ArrayList<>();
    for (RSGroupInfo g : rsg.listRSGroups()) {
      if (!g.getName().startsWith(prefix)) {
        continue;
      }
      TreeSet<String> servers = new TreeSet<>();
      for (Address a : g.getServers()) {
        servers.add(a.getHostname() + ":" + a.getPort());
      }
      TreeSet<String> tables = new TreeSet<>();
      for (TableName t : g.getTables()) {
        tables.add(t.getNameAsString());
      }
      out.add(g.getName() + "{servers=" + servers + " tables=" + tables + " conf="
        + new TreeMap<>(g.getConfiguration()) + "}");
    }
    out.sort(null);
    return String.join(" ", out);
  }
}
