package org.gohbase.minicluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.LogEntry;
import org.apache.hadoop.hbase.client.OnlineLogRecord;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.ServerType;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.quotas.QuotaFilter;
import org.apache.hadoop.hbase.quotas.QuotaScope;
import org.apache.hadoop.hbase.quotas.QuotaSettings;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.SpaceViolationPolicy;
import org.apache.hadoop.hbase.quotas.ThrottleType;

/**
 * The Java Admin calls of the HBase shell's quota commands and request logs, for hbasectl's
 * corpus test (shell-java quota ... and shell-java reqlog ...). A TARGET is
 * user=U[,table=T|,ns=N], table=T, ns=N or rs=all.
 * <ul>
 * <li>quota throttle TARGET TYPE LIMIT TIMEUNIT SCOPE; quota unthrottle TARGET [TYPE]
 * <li>quota space TARGET LIMIT POLICY; quota space-remove TARGET; quota bypass USER BOOL
 * <li>quota rpc BOOL; quota exceed BOOL: the switches
 * <li>quota list user|table|namespace NAME: the quotas of one user (with theirs on tables and
 * namespaces), table or namespace as Admin.getQuota lists them, "OWNER: SETTINGS | ..."
 * <li>reqlog clear; reqlog scan T: a full scan of T; reqlog list slow|large T [wait]: the
 * methods of the entries of T's regions in every region server's log (with wait: up to 5 s
 * for one to appear), or "none"
 * </ul>
 */
final class ShellQuotas {
  private ShellQuotas() {}

  static String run(Connection conn, Admin admin, String[] w) throws Exception {
    if (w[1].equals("reqlog")) {
      return requestLog(conn, admin, w);
    }
    switch (w[2]) {
      case "throttle":
        admin.setQuota(throttle(target(w[3]), ThrottleType.valueOf(w[4]), Long.parseLong(w[5]),
          TimeUnit.valueOf(w[6]), QuotaScope.valueOf(w[7])));
        return "";
      case "unthrottle":
        admin.setQuota(unthrottle(target(w[3]), w.length > 4 ? ThrottleType.valueOf(w[4]) : null));
        return "";
      case "space": {
        Map<String, String> t = target(w[3]);
        long limit = Long.parseLong(w[4]);
        SpaceViolationPolicy p = SpaceViolationPolicy.valueOf(w[5]);
        admin.setQuota(t.containsKey("table")
          ? QuotaSettingsFactory.limitTableSpace(TableName.valueOf(t.get("table")), limit, p)
          : QuotaSettingsFactory.limitNamespaceSpace(t.get("ns"), limit, p));
        return "";
      }
      case "space-remove": {
        Map<String, String> t = target(w[3]);
        admin.setQuota(t.containsKey("table")
          ? QuotaSettingsFactory.removeTableSpaceLimit(TableName.valueOf(t.get("table")))
          : QuotaSettingsFactory.removeNamespaceSpaceLimit(t.get("ns")));
        return "";
      }
      case "bypass":
        admin.setQuota(QuotaSettingsFactory.bypassGlobals(w[3], Boolean.parseBoolean(w[4])));
        return "";
      case "rpc":
        return Boolean.toString(admin.switchRpcThrottle(Boolean.parseBoolean(w[3])));
      case "exceed":
        return Boolean.toString(admin.exceedThrottleQuotaSwitch(Boolean.parseBoolean(w[3])));
      case "list":
        return list(admin, w[3], w[4]);
      default:
        throw new Commands.UsageException("shell-java quota: unknown operation " + w[2]);
    }
  }

  private static Map<String, String> target(String spec) {
    Map<String, String> m = new HashMap<>();
    for (String kv : spec.split(",")) {
      String[] p = kv.split("=", 2);
      m.put(p[0], p[1]);
    }
    return m;
  }

  private static QuotaSettings throttle(Map<String, String> t, ThrottleType type, long limit, TimeUnit unit,
    QuotaScope scope) {
    String user = t.get("user");
    if (user != null && t.containsKey("table")) {
      return QuotaSettingsFactory.throttleUser(user, TableName.valueOf(t.get("table")), type, limit, unit, scope);
    } else if (user != null && t.containsKey("ns")) {
      return QuotaSettingsFactory.throttleUser(user, t.get("ns"), type, limit, unit, scope);
    } else if (user != null) {
      return QuotaSettingsFactory.throttleUser(user, type, limit, unit, scope);
    } else if (t.containsKey("table")) {
      return QuotaSettingsFactory.throttleTable(TableName.valueOf(t.get("table")), type, limit, unit, scope);
    } else if (t.containsKey("ns")) {
      return QuotaSettingsFactory.throttleNamespace(t.get("ns"), type, limit, unit, scope);
    }
    return QuotaSettingsFactory.throttleRegionServer(t.get("rs"), type, limit, unit);
  }

  private static QuotaSettings unthrottle(Map<String, String> t, ThrottleType type) {
    String user = t.get("user");
    if (user != null && t.containsKey("table")) {
      TableName tn = TableName.valueOf(t.get("table"));
      return type == null ? QuotaSettingsFactory.unthrottleUser(user, tn)
        : QuotaSettingsFactory.unthrottleUserByThrottleType(user, tn, type);
    } else if (user != null && t.containsKey("ns")) {
      return type == null ? QuotaSettingsFactory.unthrottleUser(user, t.get("ns"))
        : QuotaSettingsFactory.unthrottleUserByThrottleType(user, t.get("ns"), type);
    } else if (user != null) {
      return type == null ? QuotaSettingsFactory.unthrottleUser(user)
        : QuotaSettingsFactory.unthrottleUserByThrottleType(user, type);
    } else if (t.containsKey("table")) {
      TableName tn = TableName.valueOf(t.get("table"));
      return type == null ? QuotaSettingsFactory.unthrottleTable(tn)
        : QuotaSettingsFactory.unthrottleTableByThrottleType(tn, type);
    } else if (t.containsKey("ns")) {
      return type == null ? QuotaSettingsFactory.unthrottleNamespace(t.get("ns"))
        : QuotaSettingsFactory.unthrottleNamespaceByThrottleType(t.get("ns"), type);
    }
    return type == null ? QuotaSettingsFactory.unthrottleRegionServer(t.get("rs"))
      : QuotaSettingsFactory.unthrottleRegionServerByThrottleType(t.get("rs"), type);
  }

  private static String list(Admin admin, String kind, String name) throws Exception {
    QuotaFilter f = new QuotaFilter();
    String re = Pattern.quote(name);
    switch (kind) {
      case "user":
        f.setUserFilter(re);
        break;
      case "table":
        f.setTableFilter(re);
        break;
      case "namespace":
        f.setNamespaceFilter(re);
        break;
      default:
        throw new Commands.UsageException("shell-java quota list: want user, table or namespace");
    }
    StringBuilder b = new StringBuilder();
    for (QuotaSettings s : admin.getQuota(f)) {
      b.append(b.length() > 0 ? " | " : "").append("USER=").append(s.getUserName())
        .append(" TABLE=").append(s.getTableName()).append(" NAMESPACE=").append(s.getNamespace())
        .append(": ").append(s);
    }
    return b.length() == 0 ? "none" : b.toString();
  }

  private static String requestLog(Connection conn, Admin admin, String[] w) throws Exception {
    List<ServerName> servers = new ArrayList<>(admin.getRegionServers());
    switch (w[2]) {
      case "clear":
        admin.clearSlowLogResponses(new java.util.HashSet<>(servers));
        return "";
      case "scan": {
        int n = 0;
        try (Table t = conn.getTable(TableName.valueOf(w[3])); ResultScanner rs = t.getScanner(new Scan())) {
          for (Result r : rs) {
            n++;
          }
        }
        return Integer.toString(n);
      }
      case "list": {
        long deadline = System.currentTimeMillis() + (w.length > 5 && w[5].equals("wait") ? 5000 : 0);
        while (true) {
          Map<String, Object> filter = new HashMap<>();
          filter.put("tableName", w[4]);
          List<LogEntry> es = admin.getLogEntries(new java.util.HashSet<>(servers),
            w[3].equals("slow") ? "SLOW_LOG" : "LARGE_LOG", ServerType.REGION_SERVER, 100, filter);
          TreeSet<String> methods = new TreeSet<>();
          for (LogEntry e : es) {
            methods.add(((OnlineLogRecord) e).getMethodName());
          }
          if (!methods.isEmpty() || System.currentTimeMillis() >= deadline) {
            return methods.isEmpty() ? "none" : "methods=" + String.join(",", methods);
          }
          Thread.sleep(100);
        }
      }
      default:
        throw new Commands.UsageException("shell-java reqlog: unknown operation " + w[2]);
    }
  }
}
