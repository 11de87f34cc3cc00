package org.gohbase.minicluster;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.quotas.QuotaFilter;
import org.apache.hadoop.hbase.quotas.QuotaSettings;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SetQuotaRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.SpaceQuota;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.TimedQuota;

/**
 * quotas: every quota the Java Admin reads from hbase:quota (Admin.getQuota with an empty
 * QuotaFilter), in its order, one word per QuotaSettings:
 * quota=USER,TABLE,NAMESPACE,REGIONSERVER,KIND[,...] with the names in hex ("-" when unset) and
 * KIND one of throttle,TYPE,LIMIT,TIMEUNIT,SCOPE; bypass,true|false; space,LIMIT,POLICY;
 * space-remove. A test compares it with what go-hbase's admin.Quotas reads.
 */
final class QuotaCommands {
  private QuotaCommands() {
  }

  static String list(MiniCluster mc, String[] w) throws Exception {
    if (w.length != 1) {
      throw new Commands.UsageException("quotas: wrong number of arguments (" + (w.length - 1) + ")");
    }
    List<QuotaSettings> settings;
    try (Admin admin = mc.adminConn.getAdmin()) {
      settings = admin.getQuota(new QuotaFilter());
    }
    StringBuilder b = new StringBuilder();
    for (QuotaSettings s : settings) {
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append("quota=").append(hex(s.getUserName())).append(',')
        .append(hex(s.getTableName() == null ? null : s.getTableName().getNameAsString())).append(',')
        .append(hex(s.getNamespace())).append(',').append(hex(s.getRegionServer())).append(',');
      // The request that would set it says what it is in the fields go-hbase reads.
      SetQuotaRequest r = QuotaSettings.buildSetQuotaRequestProto(s);
      if (r.hasThrottle()) {
        TimedQuota tq = r.getThrottle().getTimedQuota();
        b.append("throttle,").append(r.getThrottle().getType()).append(',').append(tq.getSoftLimit())
          .append(',').append(tq.getTimeUnit()).append(',').append(tq.getScope());
      } else if (r.hasBypassGlobals()) {
        b.append("bypass,").append(r.getBypassGlobals());
      } else if (r.hasSpaceLimit()) {
        SpaceQuota q = r.getSpaceLimit().getQuota();
        if (q.getRemove()) {
          b.append("space-remove");
        } else {
          b.append("space,").append(q.getSoftLimit()).append(',').append(q.getViolationPolicy());
        }
      } else {
        b.append("other,").append(s.getQuotaType());
      }
    }
    return b.toString();
  }

  private static String hex(String s) {
    return Hex.encode(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
  }
}
