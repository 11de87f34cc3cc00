package org.gohbase.minicluster;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.LogEntry;
import org.apache.hadoop.hbase.client.OnlineLogRecord;
import org.apache.hadoop.hbase.client.ServerType;
import org.apache.hadoop.hbase.regionserver.HRegionServer;

/**
 * request-log slow|large LIMIT and|or [region=HEX] [table=HEX] [user=HEX] [client=HEX]
 * [servers=HEX]: the entries of every live region server's slow or large request log (or of
 * those of servers, host:port;host:port...) as the Java Admin's getLogEntries returns them, one
 * word per entry:
 * rec=START,PROCESSING,QUEUE,SIZE,BLOCKBYTES,FSREAD,GETS,MUTATIONS,SERVICECALLS,CLIENT,CLASS,METHOD,DETAILS,PARAM,USER,REGION,CONNATTRS,REQATTRS
 * (strings in hex, attributes as hex of name=hexvalue;... sorted by name).
 * request-log clear: clears them on every live region server (Admin.clearSlowLogResponses)
 * and answers each server's result.
 */
final class RequestLogCommands {
  private RequestLogCommands() {
  }

  static String run(MiniCluster mc, String[] w) throws Exception {
    Set<ServerName> servers = new HashSet<>();
    for (int i = 0; i < mc.slots(); i++) {
      HRegionServer rs = mc.regionServer(i);
      if (rs != null) {
        servers.add(rs.getServerName());
      }
    }
    if (w.length == 2 && w[1].equals("clear")) {
      try (Admin admin = mc.adminConn.getAdmin()) {
        StringBuilder b = new StringBuilder();
        for (Boolean ok : admin.clearSlowLogResponses(servers)) {
          b.append(b.length() > 0 ? " " : "").append(ok);
        }
        return b.toString();
      }
    }
    if (w.length < 4 || !(w[1].equals("slow") || w[1].equals("large")) || !(w[3].equals("and") || w[3].equals("or"))) {
      throw new Commands.UsageException("request-log: want slow|large LIMIT and|or [region=HEX] [table=HEX] [user=HEX] [client=HEX] [servers=HEX], or clear");
    }
    int limit;
    try {
      limit = Integer.parseInt(w[2]);
    } catch (NumberFormatException e) {
      throw new Commands.UsageException("request-log: bad limit " + Hex.abbreviate(w[2]));
    }
    Map<String, Object> filter = new HashMap<>();
    for (int i = 4; i < w.length; i++) {
      String[] kv = w[i].split("=", 2);
      String key;
      switch (kv[0]) {
        case "region":
          key = "regionName";
          break;
        case "table":
          key = "tableName";
          break;
        case "user":
          key = "userName";
          break;
        case "client":
          key = "clientAddress";
          break;
        case "servers":
          key = null;
          break;
        default:
          throw new Commands.UsageException("request-log: unknown filter " + Hex.abbreviate(w[i]));
      }
      if (kv.length != 2) {
        throw new Commands.UsageException("request-log: filter without a value " + Hex.abbreviate(w[i]));
      }
      String v = new String(Hex.decode(kv[1]), StandardCharsets.UTF_8);
      if (key == null) {
        Set<String> want = new HashSet<>(Arrays.asList(v.split(";")));
        servers.removeIf(sn -> !want.contains(sn.getAddress().toString()));
      } else {
        filter.put(key, v);
      }
    }
    filter.put("filterByOperator", w[3].toUpperCase());
    List<LogEntry> entries;
    try (Admin admin = mc.adminConn.getAdmin()) {
      entries = admin.getLogEntries(servers, w[1].equals("slow") ? "SLOW_LOG" : "LARGE_LOG",
        ServerType.REGION_SERVER, limit, filter);
    }
    StringBuilder b = new StringBuilder();
    for (LogEntry e : entries) {
      OnlineLogRecord r = (OnlineLogRecord) e;
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append("rec=").append(r.getStartTime()).append(',').append(r.getProcessingTime()).append(',')
        .append(r.getQueueTime()).append(',').append(r.getResponseSize()).append(',')
        .append(r.getBlockBytesScanned()).append(',').append(r.getFsReadTime()).append(',')
        .append(r.getMultiGetsCount()).append(',').append(r.getMultiMutationsCount()).append(',')
        .append(r.getMultiServiceCalls()).append(',').append(hex(r.getClientAddress())).append(',')
        .append(hex(r.getServerClass())).append(',').append(hex(r.getMethodName())).append(',')
        .append(hex(r.getCallDetails())).append(',').append(hex(r.getParam())).append(',')
        .append(hex(r.getUserName())).append(',').append(hex(r.getRegionName())).append(',')
        .append(attrs(r.getConnectionAttributes())).append(',').append(attrs(r.getRequestAttributes()));
    }
    return b.toString();
  }

  private static String hex(String s) {
    return Hex.encode(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
  }

  private static String attrs(Map<String, byte[]> m) {
    StringBuilder b = new StringBuilder();
    if (m != null) {
      for (Map.Entry<String, byte[]> e : new TreeMap<>(m).entrySet()) {
        b.append(b.length() > 0 ? ";" : "").append(e.getKey()).append('=').append(Hex.encode(e.getValue()));
      }
    }
    return hex(b.toString());
  }
}
