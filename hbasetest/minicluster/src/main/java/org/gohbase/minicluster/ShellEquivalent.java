package org.gohbase.minicluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The Java Admin and Table calls that do what one HBase shell command does, for hbasectl's
 * corpus test: the test runs each shell command through hbasectl on one table and the
 * equivalent here on another, then compares the two tables' state as the Java client reads
 * it ("shell-java state T"). Words are separated by spaces; byte strings are written as
 * Bytes.toStringBinary writes them (\xNN for any byte, so no word holds a space).
 */
final class ShellEquivalent {
  private ShellEquivalent() {}

  static String run(Connection conn, String[] w) throws Exception {
    if (w.length < 2) {
      throw new Commands.UsageException("shell-java: want an operation");
    }
    String op = w[1];
    if (op.startsWith("rsg")) {
      return ShellRSGroups.run(conn, w);
    }
    String servers = ShellServers.run(conn, w);
    if (servers != null) {
      return servers;
    }
    String security = ShellSecurityEquivalent.run(conn, w);
    if (security != null) {
      return security;
    }
    try (Admin admin = conn.getAdmin()) {
      switch (op) {
        case "create": {
          TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(TableName.valueOf(w[2]));
          List<byte[]> splits = new ArrayList<>();
          for (int i = 3; i < w.length; i++) {
            if (w[i].startsWith("splits=")) {
              for (String k : w[i].substring(7).split(",")) {
                splits.add(Bytes.toBytesBinary(k));
              }
            } else if (w[i].startsWith("attr=")) {
              tableAttr(td, w[i].substring(5));
            } else {
              td.setColumnFamily(family(null, w[i]));
            }
          }
          if (splits.isEmpty()) {
            admin.createTable(td.build());
          } else {
            admin.createTable(td.build(), splits.toArray(new byte[0][]));
          }
          return "";
        }
        case "create-presplit": {
          // create-presplit T NUMREGIONS hex|uniform FAMSPEC: the shell's NUMREGIONS/SPLITALGO.
          TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(TableName.valueOf(w[2]));
          td.setColumnFamily(family(null, w[5]));
          org.apache.hadoop.hbase.util.RegionSplitter.SplitAlgorithm algo = w[4].equals("hex")
            ? new org.apache.hadoop.hbase.util.RegionSplitter.HexStringSplit()
            : new org.apache.hadoop.hbase.util.RegionSplitter.UniformSplit();
          admin.createTable(td.build(), algo.split(Integer.parseInt(w[3])));
          return "";
        }
        case "addfam":
        case "modfam": {
          TableName tn = TableName.valueOf(w[2]);
          TableDescriptor cur = admin.getDescriptor(tn);
          String name = w[3].split(";", 2)[0];
          ColumnFamilyDescriptor base = op.equals("modfam") ? cur.getColumnFamily(Bytes.toBytes(name)) : null;
          TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(cur);
          if (base == null) {
            td.setColumnFamily(family(null, w[3]));
          } else {
            td.modifyColumnFamily(family(base, w[3]));
          }
          admin.modifyTable(td.build());
          return "";
        }
        case "delfam":
          admin.deleteColumnFamily(TableName.valueOf(w[2]), Bytes.toBytes(w[3]));
          return "";
        case "setattr": {
          TableName tn = TableName.valueOf(w[2]);
          TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(admin.getDescriptor(tn));
          for (int i = 3; i < w.length; i++) {
            tableAttr(td, w[i]);
          }
          admin.modifyTable(td.build());
          return "";
        }
        case "unsetattr": {
          TableName tn = TableName.valueOf(w[2]);
          TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(admin.getDescriptor(tn));
          td.removeValue(Bytes.toBytes(w[3]));
          admin.modifyTable(td.build());
          return "";
        }
        case "disable":
          admin.disableTable(TableName.valueOf(w[2]));
          return "";
        case "enable":
          admin.enableTable(TableName.valueOf(w[2]));
          return "";
        case "drop": {
          TableName tn = TableName.valueOf(w[2]);
          if (admin.isTableEnabled(tn)) {
            admin.disableTable(tn);
          }
          admin.deleteTable(tn);
          return "";
        }
        case "truncate": {
          TableName tn = TableName.valueOf(w[2]);
          if (admin.isTableEnabled(tn)) {
            admin.disableTable(tn);
          }
          admin.truncateTable(tn, Boolean.parseBoolean(w[3]));
          return "";
        }
        case "split":
          admin.split(TableName.valueOf(w[2]), Bytes.toBytesBinary(w[3]));
          waitRegions(conn, TableName.valueOf(w[2]), Integer.parseInt(w[4]));
          return "";
        case "merge": {
          // merge T I J: the regions at indexes I and J (key order) of T.
          TableName tn = TableName.valueOf(w[2]);
          List<HRegionLocation> locs;
          try (RegionLocator rl = conn.getRegionLocator(tn)) {
            locs = rl.getAllRegionLocations();
          }
          int n = locs.size();
          admin.mergeRegionsAsync(new byte[][] {
            locs.get(Integer.parseInt(w[3])).getRegion().getEncodedNameAsBytes(),
            locs.get(Integer.parseInt(w[4])).getRegion().getEncodedNameAsBytes()}, false)
            .get(120, java.util.concurrent.TimeUnit.SECONDS);
          waitRegions(conn, tn, n - 1);
          return "";
        }
        case "ns-create": {
          NamespaceDescriptor.Builder b = NamespaceDescriptor.create(w[2]);
          for (int i = 3; i < w.length; i++) {
            String[] kv = w[i].split(":", 2);
            b.addConfiguration(kv[0], kv[1]);
          }
          admin.createNamespace(b.build());
          return "";
        }
        case "ns-set":
        case "ns-unset": {
          NamespaceDescriptor cur = admin.getNamespaceDescriptor(w[2]);
          NamespaceDescriptor.Builder b = NamespaceDescriptor.create(cur);
          if (op.equals("ns-set")) {
            String[] kv = w[3].split(":", 2);
            b.addConfiguration(kv[0], kv[1]);
          } else {
            b.removeConfiguration(w[3]);
          }
          admin.modifyNamespace(b.build());
          return "";
        }
        case "ns-drop":
          admin.deleteNamespace(w[2]);
          return "";
        case "snapshot":
          admin.snapshot(w[2], TableName.valueOf(w[3]));
          return "";
        case "clone":
          admin.cloneSnapshot(w[2], TableName.valueOf(w[3]));
          return "";
        case "restore":
          admin.restoreSnapshot(w[2]);
          return "";
        case "snapshot-delete":
          admin.deleteSnapshot(w[2]);
          return "";
        case "quota": case "reqlog": return ShellQuotas.run(conn, admin, w);
        case "state":
          return state(conn, admin, TableName.valueOf(w[2]));
        case "ns-state": {
          NamespaceDescriptor ns = admin.getNamespaceDescriptor(w[2]);
          return "ns " + new TreeMap<>(ns.getConfiguration());
        }
        case "snapshots": {
          // snapshots PREFIX: the tables of the snapshots whose name starts with PREFIX.
          StringBuilder b = new StringBuilder();
          admin.listSnapshots().stream().filter(s -> s.getName().startsWith(w[2]))
            .map(s -> s.getName().substring(w[2].length()) + "->" + s.getTableNameAsString()).sorted()
            .forEach(s -> b.append(s).append(' '));
          return b.toString().trim();
        }
        default:
          break;
      }
    }
    try (Table t = conn.getTable(TableName.valueOf(w[2]))) {
      byte[] row = Bytes.toBytesBinary(w[3]);
      switch (op) {
        case "put": {
          Put p = new Put(row);
          if (w.length > 7) {
            p.addColumn(Bytes.toBytesBinary(w[4]), Bytes.toBytesBinary(w[5]), Long.parseLong(w[7]), Bytes.toBytesBinary(w[6]));
          } else {
            p.addColumn(Bytes.toBytesBinary(w[4]), Bytes.toBytesBinary(w[5]), Bytes.toBytesBinary(w[6]));
          }
          t.put(p);
          return "";
        }
        case "delete-latest":
          t.delete(new Delete(row).addColumn(Bytes.toBytesBinary(w[4]), Bytes.toBytesBinary(w[5])));
          return "";
        case "delete-version":
          t.delete(new Delete(row).addColumn(Bytes.toBytesBinary(w[4]), Bytes.toBytesBinary(w[5]), Long.parseLong(w[6])));
          return "";
        case "delete-columns": {
          Delete d = new Delete(row);
          if (w.length > 6) {
            d.addColumns(Bytes.toBytesBinary(w[4]), Bytes.toBytesBinary(w[5]), Long.parseLong(w[6]));
          } else {
            d.addColumns(Bytes.toBytesBinary(w[4]), Bytes.toBytesBinary(w[5]));
          }
          t.delete(d);
          return "";
        }
        case "delete-fam": {
          Delete d = new Delete(row);
          if (w.length > 5) {
            d.addFamily(Bytes.toBytesBinary(w[4]), Long.parseLong(w[5]));
          } else {
            d.addFamily(Bytes.toBytesBinary(w[4]));
          }
          t.delete(d);
          return "";
        }
        case "delete-row":
          t.delete(new Delete(row));
          return "";
        case "delete-prefix": {
          // delete-prefix T PREFIX: every row starting with PREFIX, as deleteall with
          // ROWPREFIXFILTER does.
          List<Delete> ds = new ArrayList<>();
          try (ResultScanner rs = t.getScanner(new Scan().setRowPrefixFilter(row))) {
            for (Result r : rs) {
              ds.add(new Delete(r.getRow()));
            }
          }
          t.delete(ds);
          return "";
        }
        case "incr":
          t.increment(new Increment(row).addColumn(Bytes.toBytesBinary(w[4]), Bytes.toBytesBinary(w[5]), Long.parseLong(w[6])));
          return "";
        case "append":
          t.append(new Append(row).addColumn(Bytes.toBytesBinary(w[4]), Bytes.toBytesBinary(w[5]), Bytes.toBytesBinary(w[6])));
          return "";
        default:
          throw new Commands.UsageException("shell-java: unknown operation " + op);
      }
    }
  }

  /** FAMSPEC is NAME;KEY=VALUE;...: the family's settings through the builder's typed setters. */
  private static ColumnFamilyDescriptor family(ColumnFamilyDescriptor base, String spec) {
    String[] parts = spec.split(";");
    ColumnFamilyDescriptorBuilder b = base == null
      ? ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(parts[0]))
      : ColumnFamilyDescriptorBuilder.newBuilder(base);
    for (int i = 1; i < parts.length; i++) {
      String[] kv = parts[i].split("=", 2);
      String k = kv[0];
      String v = kv[1];
      switch (k) {
        case "VERSIONS": b.setMaxVersions(Integer.parseInt(v)); break;
        case "MIN_VERSIONS": b.setMinVersions(Integer.parseInt(v)); break;
        case "TTL": b.setTimeToLive(Integer.parseInt(v)); break;
        case "COMPRESSION": b.setCompressionType(Compression.Algorithm.valueOf(v)); break;
        case "BLOOMFILTER": b.setBloomFilterType(BloomType.valueOf(v)); break;
        case "BLOCKSIZE": b.setBlocksize(Integer.parseInt(v)); break;
        case "IN_MEMORY": b.setInMemory(Boolean.parseBoolean(v)); break;
        case "DATA_BLOCK_ENCODING": b.setDataBlockEncoding(DataBlockEncoding.valueOf(v)); break;
        case "BLOCKCACHE": b.setBlockCacheEnabled(Boolean.parseBoolean(v)); break;
        case "KEEP_DELETED_CELLS": b.setKeepDeletedCells(KeepDeletedCells.valueOf(v)); break;
        case "REPLICATION_SCOPE": b.setScope(Integer.parseInt(v)); break;
        case "CACHE_DATA_ON_WRITE": b.setCacheDataOnWrite(Boolean.parseBoolean(v)); break;
        case "PREFETCH_BLOCKS_ON_OPEN": b.setPrefetchBlocksOnOpen(Boolean.parseBoolean(v)); break;
        case "CONF": {
          String[] c = v.split(":", 2);
          b.setConfiguration(c[0], c[1]);
          break;
        }
        case "META": {
          String[] c = v.split(":", 2);
          b.setValue(c[0], c[1]);
          break;
        }
        default: b.setValue(k, v);
      }
    }
    return b.build();
  }

  /** ATTR is KEY:VALUE: a table attribute through the builder's typed setters. */
  private static void tableAttr(TableDescriptorBuilder td, String attr) {
    String[] kv = attr.split(":", 2);
    String k = kv[0];
    String v = kv[1];
    switch (k) {
      case "MAX_FILESIZE": td.setMaxFileSize(Long.parseLong(v)); break;
      case "MEMSTORE_FLUSHSIZE": td.setMemStoreFlushSize(Long.parseLong(v)); break;
      case "READONLY": td.setReadOnly(Boolean.parseBoolean(v)); break;
      case "DURABILITY": td.setDurability(Durability.valueOf(v)); break;
      case "NORMALIZATION_ENABLED": td.setNormalizationEnabled(Boolean.parseBoolean(v)); break;
      case "COMPACTION_ENABLED": td.setCompactionEnabled(Boolean.parseBoolean(v)); break;
      case "REGION_REPLICATION": td.setRegionReplication(Integer.parseInt(v)); break;
      default: td.setValue(k, v);
    }
  }

  private static void waitRegions(Connection conn, TableName tn, int n) throws Exception {
    long end = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < end) {
      try (RegionLocator rl = conn.getRegionLocator(tn)) {
        if (rl.getAllRegionLocations().size() == n) {
          return;
        }
      }
      Thread.sleep(100);
    }
    throw new IOException("split: " + tn + " has not " + n + " regions after 60 s");
  }

  /**
   * A table's state as the Java client reads it: enabled, attributes, each family's values and
   * configuration, split keys, and every cell of a raw scan (delete markers and all versions),
   * with timestamps below 10^12 as they are and the server's clock as "now".
   */
  private static String state(Connection conn, Admin admin, TableName tn) throws IOException {
    StringBuilder b = new StringBuilder();
    b.append("enabled=").append(admin.isTableEnabled(tn));
    TableDescriptor td = admin.getDescriptor(tn);
    Map<String, String> attrs = new TreeMap<>();
    td.getValues().forEach((k, v) -> attrs.put(Bytes.toStringBinary(k.get()), Bytes.toStringBinary(v.get())));
    b.append(" attrs=").append(attrs);
    for (ColumnFamilyDescriptor f : td.getColumnFamilies()) {
      Map<String, String> vals = new TreeMap<>();
      f.getValues().forEach((k, v) -> vals.put(Bytes.toStringBinary(k.get()), Bytes.toStringBinary(v.get())));
      b.append(" family=").append(f.getNameAsString()).append(vals).append(new TreeMap<>(f.getConfiguration()));
    }
    b.append(" splits=[");
    try (RegionLocator rl = conn.getRegionLocator(tn)) {
      for (HRegionLocation l : rl.getAllRegionLocations()) {
        if (l.getRegion().getStartKey().length > 0) {
          b.append(Bytes.toStringBinary(l.getRegion().getStartKey())).append(',');
        }
      }
    }
    b.append(']');
    if (!admin.isTableEnabled(tn)) {
      return b.toString();
    }
    b.append(" cells=");
    try (Table t = conn.getTable(tn); ResultScanner rs = t.getScanner(new Scan().setRaw(true).readAllVersions())) {
      for (Result r : rs) {
        for (Cell c : r.rawCells()) {
          long ts = c.getTimestamp();
          b.append(Bytes.toStringBinary(CellUtil.cloneRow(c))).append('/')
            .append(Bytes.toStringBinary(CellUtil.cloneFamily(c))).append(':')
            .append(Bytes.toStringBinary(CellUtil.cloneQualifier(c))).append('/')
            .append(ts < 1_000_000_000_000L ? Long.toString(ts) : "now").append('/')
            .append(c.getType()).append('=')
            .append(Bytes.toStringBinary(CellUtil.cloneValue(c))).append(';');
        }
      }
    }
    return b.toString();
  }
}
