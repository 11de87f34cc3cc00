package org.gohbase.minicluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.coprocessor.AggregationClient;
import org.apache.hadoop.hbase.client.coprocessor.DoubleColumnInterpreter;
import org.apache.hadoop.hbase.client.coprocessor.LongColumnInterpreter;
import org.apache.hadoop.hbase.filter.ParseFilter;
import org.apache.hadoop.hbase.protobuf.generated.VisibilityLabelsProtos.GetAuthsResponse;
import org.apache.hadoop.hbase.protobuf.generated.VisibilityLabelsProtos.ListLabelsResponse;
import org.apache.hadoop.hbase.security.visibility.VisibilityClient;

/**
 * The Java clients of HBase's endpoints, as the reference the Go clients are compared with:
 * AggregationClient (AggregateImplementation) and VisibilityClient (VisibilityController).
 *
 * <pre>
 * aggregate FN TABLE INTERP FAMILY QUALIFIERS START STOP FILTER INCLUDESTOP
 *   FN: rowcount sum max min avg std median; INTERP: long double; QUALIFIERS: hex words
 *   joined by ',' ("-": the family); START, STOP: hex; FILTER: the hex of a filter in HBase's
 *   filter language (ParseFilter), "-" for none; INCLUDESTOP: true or false.
 *   Answers "null", "long:N" or "double:BITS" (Double.doubleToRawLongBits, 16 hex digits).
 * vis-labels REGEX        the labels (hex words) VisibilityClient.listLabels returns
 * vis-auths USER          the auths (hex words) VisibilityClient.getAuths returns
 * </pre>
 */
final class Endpoints {
  private Endpoints() {}

  static String run(MiniCluster mc, String[] w) throws Exception {
    try {
      return dispatch(mc, w);
    } catch (Exception e) {
      throw e;
    } catch (Throwable t) {
      throw new Exception(t);
    }
  }

  private static String dispatch(MiniCluster mc, String[] w) throws Throwable {
    switch (w[0]) {
      case "aggregate":
        need(w, 10);
        return aggregate(mc.dataConn, w);
      case "vis-labels":
        need(w, 2);
        String regex = w[1].equals("-") ? null : utf8(Hex.decode(w[1]));
        return words(VisibilityClient.listLabels(mc.adminConn, regex));
      case "vis-auths":
        need(w, 2);
        GetAuthsResponse r = VisibilityClient.getAuths(mc.adminConn, utf8(Hex.decode(w[1])));
        List<byte[]> auths = new ArrayList<>();
        r.getAuthList().forEach(b -> auths.add(b.toByteArray()));
        return words(auths);
      default:
        throw new Commands.UsageException("unknown endpoint command " + Hex.abbreviate(w[0]));
    }
  }

  private static void need(String[] w, int n) throws Commands.UsageException {
    if (w.length != n) {
      throw new Commands.UsageException(w[0] + ": wrong number of arguments (" + (w.length - 1) + ")");
    }
  }

  private static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  private static String words(ListLabelsResponse r) {
    List<byte[]> labels = new ArrayList<>();
    r.getLabelList().forEach(b -> labels.add(b.toByteArray()));
    return words(labels);
  }

  private static String words(List<byte[]> list) {
    StringBuilder b = new StringBuilder();
    for (byte[] x : list) {
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(Hex.encode(x));
    }
    return b.toString();
  }

  private static String aggregate(Connection conn, String[] w) throws Throwable {
    String fn = w[1];
    TableName table = TableName.valueOf(w[2]);
    boolean isLong;
    switch (w[3]) {
      case "long":
        isLong = true;
        break;
      case "double":
        isLong = false;
        break;
      default:
        throw new Commands.UsageException("aggregate: interpreter long or double, not " + Hex.abbreviate(w[3]));
    }
    Scan scan = new Scan();
    byte[] family = Hex.decode(w[4]);
    if (family.length > 0) {
      if (w[5].equals("-")) {
        scan.addFamily(family);
      } else {
        for (String q : w[5].split(",")) {
          scan.addColumn(family, Hex.decode(q));
        }
      }
    }
    scan.withStartRow(Hex.decode(w[6]));
    scan.withStopRow(Hex.decode(w[7]), Boolean.parseBoolean(w[9]));
    if (!w[8].equals("-")) {
      scan.setFilter(new ParseFilter().parseFilterString(Hex.decode(w[8])));
    }
    try (AggregationClient ac = new AggregationClient(conn)) {
      if (isLong) {
        LongColumnInterpreter ci = new LongColumnInterpreter();
        switch (fn) {
          case "rowcount":
            return "long:" + ac.rowCount(table, ci, scan);
          case "sum":
            return longOrNull(ac.sum(table, ci, scan));
          case "max":
            return longOrNull(ac.max(table, ci, scan));
          case "min":
            return longOrNull(ac.min(table, ci, scan));
          case "avg":
            return dbl(ac.avg(table, ci, scan));
          case "std":
            return dbl(ac.std(table, ci, scan));
          case "median":
            return longOrNull(ac.median(table, ci, scan));
          default:
            break;
        }
      } else {
        DoubleColumnInterpreter ci = new DoubleColumnInterpreter();
        switch (fn) {
          case "rowcount":
            return "long:" + ac.rowCount(table, ci, scan);
          case "sum":
            return doubleOrNull(ac.sum(table, ci, scan));
          case "max":
            return doubleOrNull(ac.max(table, ci, scan));
          case "min":
            return doubleOrNull(ac.min(table, ci, scan));
          case "avg":
            return dbl(ac.avg(table, ci, scan));
          case "std":
            return dbl(ac.std(table, ci, scan));
          case "median":
            return doubleOrNull(ac.median(table, ci, scan));
          default:
            break;
        }
      }
    }
    throw new Commands.UsageException("aggregate: unknown function " + Hex.abbreviate(fn));
  }

  private static String longOrNull(Long v) {
    return v == null ? "null" : "long:" + v;
  }

  private static String doubleOrNull(Double v) {
    return v == null ? "null" : dbl(v);
  }

  private static String dbl(double v) {
    return String.format("double:%016x", Double.doubleToRawLongBits(v));
  }
}
