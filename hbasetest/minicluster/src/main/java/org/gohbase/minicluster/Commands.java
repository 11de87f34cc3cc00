package org.gohbase.minicluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.master.RegionState;
import org.apache.hadoop.hbase.quotas.QuotaSettingsFactory;
import org.apache.hadoop.hbase.quotas.ThrottleType;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The control commands. Each returns the words after "OK" or throws; see execute. */
final class Commands {
  private static final Logger LOG = LoggerFactory.getLogger(Commands.class);
  private static final long WAIT_MS = 120_000;

  private final MiniCluster mc;
  private final Runnable stopper;
  /** Commands that change where regions or servers are run one at a time. */
  private final Object topology = new Object();

  Commands(MiniCluster mc, Runnable stopper) {
    this.mc = mc;
    this.stopper = stopper;
  }

  /** A command the caller got wrong; its message is the whole ERR reason. */
  static final class UsageException extends Exception {
    UsageException(String msg) {
      super(msg);
    }
  }

  @FunctionalInterface
  interface Check {
    boolean ok() throws Exception;
  }

  /** Runs one protocol line and returns the one-line answer. Never throws. */
  String execute(String line) {
    String[] w = line.trim().split("\\s+");
    long t0 = System.nanoTime();
    try {
      String r = dispatch(w);
      LOG.info("command {} ok in {} ms", Hex.abbreviate(line.trim()), (System.nanoTime() - t0) / 1_000_000);
      return r.isEmpty() ? "OK" : "OK " + r;
    } catch (UsageException e) {
      LOG.info("command {} refused: {}", Hex.abbreviate(line.trim()), e.getMessage());
      return "ERR " + e.getMessage().replaceAll("[\\r\\n]+", " ");
    } catch (IllegalArgumentException e) {
      LOG.info("command {} refused", Hex.abbreviate(line.trim()), e);
      return "ERR " + Launcher.oneLine(e);
    } catch (Throwable e) {
      LOG.warn("command {} failed", Hex.abbreviate(line.trim()), e);
      return "ERR " + Launcher.oneLine(e);
    }
  }

  private String dispatch(String[] w) throws Exception {
    String cmd = w[0];
    switch (cmd) {
      case "status":
        args(w, 1, 1);
        return status();
      case "regions":
        args(w, 1, 2);
        return regions(w.length > 1 ? w[1] : null);
      case "create":
        args(w, 3, Integer.MAX_VALUE);
        return create(w);
      case "replicas":
        // replicas TABLE: every replica of every region, with hbase:meta's, the master's and
        // the region servers' view of where it is (Replicas).
        args(w, 2, 2);
        return replicas(table(w[1]));
      case "create-recorded":
        // A table whose regions record what each request carried (RequestRecorder).
        args(w, 3, 3);
        return createRecorded(table(w[1]), w[2]);
      case "recorded":
        args(w, 2, 3);
        return recorded(w[1], w.length > 2 && w[2].equals("clear"));
      case "drop":
      case "disable":
      case "enable":
      case "truncate":
        args(w, 2, 2);
        return tableAdmin(cmd, table(w[1]));
      case "flush":
      case "compact":
      case "major-compact":
        args(w, 2, 2);
        return compaction(cmd, table(w[1]));
      case "put":
        args(w, 6, 6);
        return put(table(w[1]), Hex.decode(w[2]), Hex.decode(w[3]), Hex.decode(w[4]), Hex.decode(w[5]));
      case "get":
        args(w, 3, 3);
        return get(table(w[1]), Hex.decode(w[2]));
      case "scan":
        args(w, 2, 4);
        return scan(table(w[1]), w.length > 2 ? Hex.decode(w[2]) : new byte[0],
          w.length > 3 ? Hex.decode(w[3]) : new byte[0]);
      case "increment":
        args(w, 6, 6);
        return increment(table(w[1]), Hex.decode(w[2]), Hex.decode(w[3]), Hex.decode(w[4]), parseLong(w[5]));
      case "delete":
        args(w, 3, 5);
        return delete(table(w[1]), Hex.decode(w[2]), w.length > 3 ? Hex.decode(w[3]) : null,
          w.length > 4 ? Hex.decode(w[4]) : null);
      case "split":
        args(w, 3, 3);
        synchronized (topology) {
          return split(table(w[1]), Hex.decode(w[2]));
        }
      case "merge":
        args(w, 3, 3);
        synchronized (topology) {
          return merge(w[1], w[2]);
        }
      case "move":
        args(w, 3, 3);
        synchronized (topology) {
          return move(w[1], slot(w[2]));
        }
      case "move-all":
        args(w, 2, 2);
        synchronized (topology) {
          return moveAll(slot(w[1]));
        }
      case "move-meta":
        args(w, 1, 2);
        synchronized (topology) {
          return moveMeta(w.length > 1 ? slot(w[1]) : -1);
        }
      case "balance":
        args(w, 1, 1);
        synchronized (topology) {
          return balance();
        }
      case "kill-rs":
      case "stop-rs":
        args(w, 2, 2);
        synchronized (topology) {
          return stopRS(slot(w[1]), cmd.equals("kill-rs"));
        }
      case "start-rs":
        args(w, 2, 2);
        synchronized (topology) {
          return startRS(slot(w[1]));
        }
      case "restart-rs":
        args(w, 2, 2);
        synchronized (topology) {
          int i = slot(w[1]);
          if (mc.regionServer(i) != null) {
            stopRS(i, false);
          }
          return startRS(i);
        }
      case "kill-master":
        args(w, 1, 1);
        synchronized (topology) {
          return killMaster();
        }
      case "start-master":
        args(w, 1, 1);
        synchronized (topology) {
          return startMaster();
        }
      case "shell-java":
        return w.length > 1 && w[1].startsWith("peer") ? ShellPeers.run(mc, w) : ShellEquivalent.run(mc.adminConn, w);
      case "slow-reads":
        // slow-reads SLOT DELAYMS SHARE: SlowReads on region server SLOT (SHARE 0 ends it).
        args(w, 4, 4);
        synchronized (topology) {
          return slowReads(slot(w[1]), parseLong(w[2]), w[3]);
        }
      case "secondary-gets":
        // secondary-gets: how many Gets secondary replicas have served (SlowReads counts them).
        args(w, 1, 1);
        return Long.toString(SlowReads.secondaryGets());
      case "replication-peers":
        // replication-peers: the Java Admin's listReplicationPeers (ReplicationPeers).
        args(w, 1, 1);
        return ReplicationPeers.list(mc.adminConn);
      case "thread-dump":
        // thread-dump PATH: every thread's stack into the file PATH (hex of an absolute path),
        // for a test that finds the cluster stalled; answers the number of threads.
        args(w, 2, 2);
        return Integer.toString(ThreadDump.write(absoluteFile("thread-dump", Hex.decode(w[1]))));
      case "throttle":
        args(w, 3, 3);
        return throttle(table(w[1]), parseLong(w[2]));
      case "quotas": return QuotaCommands.list(mc, w);
      case "request-log": return RequestLogCommands.run(mc, w);
      case "rsgroups": return RSGroupCommands.list(mc, w);
      case "kinit":
        args(w, 4, 4);
        return kinit(Hex.decode(w[1]), parseLong(w[2]), parseLong(w[3]));
      case "kdc-clockskew":
        args(w, 1, 2);
        return kdcClockSkew(w.length > 1 ? w[1] : null);
      case "stop-zk":
        // ZooKeeper goes away while HBase keeps running (its ZooKeeper clients stay
        // disconnected, which no server acts on for a while): for clients that must not need it.
        args(w, 1, 1);
        mc.stopZooKeeper();
        return "";
      case "aggregate":
      case "vis-labels":
      case "vis-auths":
        return Endpoints.run(mc, w); // HBase's Java endpoint clients (Endpoints)
      case "stop":
        args(w, 1, 1);
        stopper.run();
        return "";
      default:
        String answer = AdminChecks.dispatch(mc, w);
        if (answer != null) {
          return answer;
        }
        String security = new SecurityCommands(mc).run(w);
        if (security != null) {
          return security;
        }
        throw new UsageException("unknown command " + Hex.abbreviate(cmd));
    }
  }

  // ---- argument helpers

  /** The file whose absolute path is path's UTF-8 (a command's hex argument, decoded). */
  private static java.io.File absoluteFile(String cmd, byte[] path) throws UsageException {
    java.io.File f = new java.io.File(new String(path, java.nio.charset.StandardCharsets.UTF_8));
    if (path.length == 0 || !f.isAbsolute()) {
      throw new UsageException(cmd + ": the path must be absolute");
    }
    return f;
  }

  private static void args(String[] w, int min, int max) throws UsageException {
    int n = w.length;
    if (n < min || n > max) {
      throw new UsageException(w[0] + ": wrong number of arguments (" + (n - 1) + ")");
    }
  }

  private static TableName table(String s) throws UsageException {
    try {
      return TableName.valueOf(s);
    } catch (IllegalArgumentException e) {
      throw new UsageException("bad table name " + Hex.abbreviate(s) + ": " + e.getMessage());
    }
  }

  private int slot(String s) throws UsageException {
    int i;
    try {
      i = Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw new UsageException("bad region server index " + Hex.abbreviate(s));
    }
    if (i < 0 || i >= mc.slots()) {
      throw new UsageException("no region server index " + i + " (the cluster has " + mc.slots() + ")");
    }
    return i;
  }

  private static long parseLong(String s) throws UsageException {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new UsageException("not an integer: " + Hex.abbreviate(s));
    }
  }

  private static void waitFor(String what, long ms, Check c) throws Exception {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    while (!c.ok()) {
      if (System.nanoTime() > end) {
        throw new TimeoutException("timed out after " + ms + " ms waiting for " + what);
      }
      Thread.sleep(100);
    }
  }

  private HMaster needMaster() throws UsageException {
    HMaster m = mc.master();
    if (m == null) {
      throw new UsageException("no active master (start-master first)");
    }
    return m;
  }

  private HRegionServer needRS(int i) throws UsageException {
    HRegionServer rs = mc.regionServer(i);
    if (rs == null) {
      throw new UsageException("region server " + i + " is not running");
    }
    return rs;
  }

  private void needTable(Admin admin, TableName tn) throws IOException, UsageException {
    if (!admin.tableExists(tn)) {
      throw new UsageException("table " + tn.getNameAsString() + " does not exist");
    }
  }

  // ---- status and regions

  private String status() {
    StringBuilder b = new StringBuilder();
    HMaster m = mc.master();
    if (m != null) {
      ServerName sn = m.getServerName();
      b.append("master=").append(sn.getAddress()).append(',').append(sn.getStartcode()).append(",active");
    } else {
      b.append("master=localhost:").append(mc.args.masterPort).append(",0,dead");
    }
    for (int i = 0; i < mc.slots(); i++) {
      HRegionServer rs = mc.regionServer(i);
      b.append(" rs=").append(i).append(",localhost:").append(mc.args.rsPorts.get(i)).append(',');
      if (rs != null) {
        mc.lastStartCode[i] = rs.getServerName().getStartcode();
        b.append(mc.lastStartCode[i]).append(",live");
      } else {
        b.append(mc.lastStartCode[i]).append(",dead");
      }
    }
    return b.toString();
  }

  /** Open regions of tn as hbase:meta has them, split parents left out. */
  private List<HRegionLocation> locations(TableName tn) throws Exception {
    List<HRegionLocation> out = new ArrayList<>();
    try (RegionLocator l = mc.adminConn.getRegionLocator(tn)) {
      if (tn.equals(TableName.META_TABLE_NAME)) {
        out.add(l.getRegionLocation(HConstants.EMPTY_START_ROW, true));
        return out;
      }
      for (HRegionLocation loc : l.getAllRegionLocations()) {
        RegionInfo ri = loc.getRegion();
        if (ri == null || ri.isOffline() || ri.isSplit() || ri.getReplicaId() != 0) {
          continue;
        }
        out.add(loc);
      }
    }
    out.sort((a, b) -> Bytes.compareTo(a.getRegion().getStartKey(), b.getRegion().getStartKey()));
    return out;
  }

  private String regions(String table) throws Exception {
    List<TableName> tables = new ArrayList<>();
    try (Admin admin = mc.adminConn.getAdmin()) {
      if (table != null) {
        TableName tn = table(table);
        if (!tn.equals(TableName.META_TABLE_NAME)) {
          needTable(admin, tn);
        }
        tables.add(tn);
      } else {
        tables.add(TableName.META_TABLE_NAME);
        TableName[] names = admin.listTableNames(Pattern.compile(".*"), true);
        Arrays.sort(names);
        for (TableName tn : names) {
          if (!tn.equals(TableName.META_TABLE_NAME)) {
            tables.add(tn);
          }
        }
      }
    }
    StringBuilder b = new StringBuilder();
    for (TableName tn : tables) {
      for (HRegionLocation loc : locations(tn)) {
        if (b.length() > 0) {
          b.append(' ');
        }
        RegionInfo ri = loc.getRegion();
        ServerName sn = loc.getServerName();
        b.append("region=").append(tn.getNameAsString()).append(',').append(ri.getEncodedName())
          .append(',').append(Hex.encode(ri.getRegionName()))
          .append(',').append(Hex.encode(ri.getStartKey()))
          .append(',').append(Hex.encode(ri.getEndKey()))
          .append(',').append(mc.slotOf(sn))
          .append(',').append(sn == null ? "-" : sn.getAddress().toString())
          .append(',').append(sn == null ? 0 : sn.getStartcode());
      }
    }
    return b.toString();
  }

  // ---- tables

  /** The replicas of tn's regions; the table must exist (hbase:meta always does). */
  private String replicas(TableName tn) throws Exception {
    if (!tn.equals(TableName.META_TABLE_NAME)) {
      try (Admin admin = mc.adminConn.getAdmin()) {
        needTable(admin, tn);
      }
    }
    return Replicas.list(mc, tn);
  }

  /** create TABLE FAMS [replication=N] [SPLITKEY ...]. */
  private String create(String[] w) throws Exception {
    TableName tn = table(w[1]);
    TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(tn);
    for (String f : w[2].split(",")) {
      byte[] fam = Hex.decode(f);
      if (fam.length == 0) {
        throw new UsageException("create: empty column family name");
      }
      td.setColumnFamily(ColumnFamilyDescriptorBuilder.of(fam));
    }
    int first = 3;
    int replication = 1;
    if (w.length > 3 && w[3].startsWith("replication=")) {
      replication = (int) parseLong(w[3].substring("replication=".length()));
      if (replication < 1 || replication > 0xffff) {
        throw new UsageException("create: region replication " + replication + " is not 1 to 65535");
      }
      td.setRegionReplication(replication);
      first = 4;
    }
    byte[][] splits = new byte[w.length - first][];
    for (int i = first; i < w.length; i++) {
      splits[i - first] = Hex.decode(w[i]);
    }
    try (Admin admin = mc.adminConn.getAdmin()) {
      if (admin.tableExists(tn)) {
        throw new UsageException("table " + tn.getNameAsString() + " already exists");
      }
      if (splits.length == 0) {
        admin.createTable(td.build());
      } else {
        admin.createTable(td.build(), splits);
      }
    }
    if (replication > 1) {
      // createTable returns once the primaries are open; the secondaries are assigned by the
      // same procedure but may still be opening.
      int n = replication;
      waitFor("every replica of " + tn + " to open", WAIT_MS, () -> Replicas.allOpen(mc, tn, n));
    }
    return "";
  }

  private String createRecorded(TableName tn, String family) throws Exception {
    byte[] fam = Hex.decode(family);
    if (fam.length == 0) {
      throw new UsageException("create-recorded: empty column family name");
    }
    TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(tn)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(fam))
        .setCoprocessor(RequestRecorder.class.getName());
    try (Admin admin = mc.adminConn.getAdmin()) {
      if (admin.tableExists(tn)) {
        throw new UsageException("table " + tn.getNameAsString() + " already exists");
      }
      admin.createTable(td.build());
    }
    return "";
  }

  private static String recorded(String table, boolean clear) {
    List<String> recs = RequestRecorder.read(table, clear);
    StringBuilder sb = new StringBuilder().append(recs.size());
    for (String r : recs) {
      sb.append(' ').append(r);
    }
    return sb.toString();
  }

  private String tableAdmin(String cmd, TableName tn) throws Exception {
    try (Admin admin = mc.adminConn.getAdmin()) {
      needTable(admin, tn);
      switch (cmd) {
        case "drop":
          if (!admin.isTableDisabled(tn)) {
            admin.disableTable(tn);
          }
          admin.deleteTable(tn);
          break;
        case "disable":
          admin.disableTable(tn);
          break;
        case "enable":
          admin.enableTable(tn);
          break;
        default: // truncate
          if (!admin.isTableDisabled(tn)) {
            admin.disableTable(tn);
          }
          admin.truncateTable(tn, true);
          break;
      }
    }
    return "";
  }

  /**
   * Sets a throttle of perSecond requests a second on every region server for table, or removes
   * it (0). The master writes it to hbase:quota; each region server applies it once its quota
   * cache refreshes (every second with --quotas), so a caller waits for its effect itself.
   */
  private String throttle(TableName tn, long perSecond) throws Exception {
    if (perSecond < 0) {
      throw new UsageException("throttle: negative requests per second " + perSecond);
    }
    try (Admin admin = mc.adminConn.getAdmin()) {
      needTable(admin, tn);
      if (perSecond == 0) {
        admin.setQuota(QuotaSettingsFactory.unthrottleTable(tn));
      } else {
        admin.setQuota(QuotaSettingsFactory.throttleTable(tn, ThrottleType.REQUEST_NUMBER, perSecond, TimeUnit.SECONDS));
      }
    }
    return "";
  }

  private String compaction(String cmd, TableName tn) throws Exception {
    try (Admin admin = mc.adminConn.getAdmin()) {
      needTable(admin, tn);
      switch (cmd) {
        case "flush":
          admin.flush(tn);
          return "";
        case "compact":
          admin.compact(tn);
          break;
        default:
          admin.majorCompact(tn);
          break;
      }
      // Requests are queued on the region servers; wait until none is queued or running.
      Thread.sleep(200);
      waitFor("compaction of " + tn, WAIT_MS, () -> admin.getCompactionState(tn) == CompactionState.NONE);
    }
    return "";
  }

  // ---- data, with the data connection (the client principal in secure mode)

  private String put(TableName tn, byte[] row, byte[] fam, byte[] qual, byte[] value) throws IOException {
    try (Table t = mc.dataConn.getTable(tn)) {
      t.put(new Put(row).addColumn(fam, qual, value));
    }
    return "";
  }

  private String get(TableName tn, byte[] row) throws IOException {
    try (Table t = mc.dataConn.getTable(tn)) {
      Result r = t.get(new Get(row));
      StringBuilder b = new StringBuilder();
      appendCells(b, r);
      return b.toString();
    }
  }

  private String scan(TableName tn, byte[] start, byte[] stop) throws IOException {
    Scan s = new Scan();
    if (start.length > 0) {
      s.withStartRow(start);
    }
    if (stop.length > 0) {
      s.withStopRow(stop);
    }
    StringBuilder b = new StringBuilder();
    try (Table t = mc.dataConn.getTable(tn); ResultScanner rs = t.getScanner(s)) {
      for (Result r : rs) {
        appendCells(b, r);
      }
    }
    return b.toString();
  }

  private static void appendCells(StringBuilder b, Result r) {
    if (r == null || r.isEmpty()) {
      return;
    }
    for (Cell c : r.rawCells()) {
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append("cell=").append(Hex.encode(CellUtil.cloneRow(c)))
        .append(',').append(Hex.encode(CellUtil.cloneFamily(c)))
        .append(',').append(Hex.encode(CellUtil.cloneQualifier(c)))
        .append(',').append(c.getTimestamp())
        .append(',').append(Hex.encode(CellUtil.cloneValue(c)));
    }
  }

  private String increment(TableName tn, byte[] row, byte[] fam, byte[] qual, long delta) throws IOException {
    try (Table t = mc.dataConn.getTable(tn)) {
      return Long.toString(t.incrementColumnValue(row, fam, qual, delta));
    }
  }

  private String delete(TableName tn, byte[] row, byte[] fam, byte[] qual) throws IOException {
    Delete d = new Delete(row);
    if (fam != null && qual != null) {
      d.addColumns(fam, qual);
    } else if (fam != null) {
      d.addFamily(fam);
    }
    try (Table t = mc.dataConn.getTable(tn)) {
      t.delete(d);
    }
    return "";
  }

  // ---- regions

  private HRegionLocation containing(TableName tn, byte[] key) throws Exception {
    for (HRegionLocation loc : locations(tn)) {
      RegionInfo ri = loc.getRegion();
      if (ri.containsRow(key)) {
        return loc;
      }
    }
    throw new UsageException("no region of " + tn + " holds row " + Hex.encode(key));
  }

  private String split(TableName tn, byte[] key) throws Exception {
    if (key.length == 0) {
      throw new UsageException("split: empty split key");
    }
    try (Admin admin = mc.adminConn.getAdmin()) {
      needTable(admin, tn);
      HRegionLocation parentLoc = containing(tn, key);
      RegionInfo parent = parentLoc.getRegion();
      if (Bytes.equals(parent.getStartKey(), key)) {
        throw new UsageException("split: " + Hex.encode(key) + " is already the start of region " + parent.getEncodedName());
      }
      int from = mc.slotOf(parentLoc.getServerName());
      HRegionServer src = from < 0 ? null : mc.regionServer(from);
      RegionInfo[] left = new RegionInfo[1];
      RegionInfo[] right = new RegionInfo[1];
      ReopenWatch watch = new ReopenWatch(
        src == null ? () -> true : ReopenWatch.closedOn(src, parent.getEncodedName()),
        ReopenWatch.openAnywhere(mc, tn, parent.getStartKey(), key, left),
        ReopenWatch.openInMeta(mc, left, null),
        ReopenWatch.openAnywhere(mc, tn, key, parent.getEndKey(), right),
        ReopenWatch.openInMeta(mc, right, null));
      try {
        admin.splitRegionAsync(parent.getRegionName(), key).get(WAIT_MS, TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        watch.close();
        throw e;
      }
      String[] daughters = new String[2];
      waitFor("the daughters of " + parent.getEncodedName(), WAIT_MS, () -> {
        daughters[0] = daughters[1] = null;
        for (HRegionLocation loc : locations(tn)) {
          RegionInfo ri = loc.getRegion();
          if (loc.getServerName() == null) {
            continue;
          }
          if (Bytes.equals(ri.getStartKey(), parent.getStartKey()) && Bytes.equals(ri.getEndKey(), key)) {
            daughters[0] = ri.getEncodedName();
          } else if (Bytes.equals(ri.getStartKey(), key) && Bytes.equals(ri.getEndKey(), parent.getEndKey())) {
            daughters[1] = ri.getEncodedName();
          }
        }
        return daughters[0] != null && daughters[1] != null;
      });
      long[] at = watch.finish(2_000);
      return daughters[0] + " " + daughters[1] + " " + at[0] + " " + at[1] + " " + at[2] + " " + at[3] + " " + at[4];
    }
  }

  private RegionState regionState(HMaster m, String encoded) throws UsageException {
    RegionState s = m.getAssignmentManager().getRegionStates().getRegionState(encoded);
    if (s == null) {
      throw new UsageException("no region " + Hex.abbreviate(encoded));
    }
    return s;
  }

  private String merge(String a, String b) throws Exception {
    HMaster m = needMaster();
    RegionInfo ra = regionState(m, a).getRegion();
    RegionInfo rb = regionState(m, b).getRegion();
    if (!ra.getTable().equals(rb.getTable())) {
      throw new UsageException("merge: regions of different tables");
    }
    if (Bytes.compareTo(ra.getStartKey(), rb.getStartKey()) > 0) {
      RegionInfo t = ra;
      ra = rb;
      rb = t;
    }
    TableName tn = ra.getTable();
    byte[] start = ra.getStartKey();
    byte[] end = rb.getEndKey();
    try (Admin admin = mc.adminConn.getAdmin()) {
      admin.mergeRegionsAsync(new byte[][] {ra.getEncodedNameAsBytes(), rb.getEncodedNameAsBytes()}, false)
        .get(WAIT_MS, TimeUnit.MILLISECONDS);
    }
    String[] merged = new String[1];
    waitFor("the merged region", WAIT_MS, () -> {
      for (HRegionLocation loc : locations(tn)) {
        RegionInfo ri = loc.getRegion();
        if (loc.getServerName() != null && Bytes.equals(ri.getStartKey(), start) && Bytes.equals(ri.getEndKey(), end)) {
          merged[0] = ri.getEncodedName();
          return true;
        }
      }
      return false;
    });
    return merged[0];
  }

  private void moveAndWait(Admin admin, HMaster m, RegionInfo ri, ServerName to) throws Exception {
    admin.move(ri.getEncodedNameAsBytes(), to);
    waitFor("region " + ri.getEncodedName() + " to open on " + to, WAIT_MS, () -> {
      RegionState s = m.getAssignmentManager().getRegionStates().getRegionState(ri);
      return s != null && s.isOpened() && to.equals(s.getServerName());
    });
  }

  private String move(String encoded, int slot) throws Exception {
    HMaster m = needMaster();
    RegionInfo ri = regionState(m, encoded).getRegion();
    HRegionServer target = needRS(slot);
    ServerName to = target.getServerName();
    RegionState before = regionState(m, encoded);
    int from = mc.slotOf(before.getServerName());
    HRegionServer src = from < 0 ? null : mc.regionServer(from);
    ReopenWatch watch = new ReopenWatch(
      src == null ? () -> true : ReopenWatch.closedOn(src, encoded),
      ReopenWatch.openOn(target, encoded),
      ReopenWatch.openInMeta(mc, new RegionInfo[] {ri}, to));
    try (Admin admin = mc.adminConn.getAdmin()) {
      moveAndWait(admin, m, ri, to);
    } catch (Exception e) {
      watch.close();
      throw e;
    }
    long[] at = watch.finish(2_000);
    // When the region stopped serving on its old server, opened on the new one, and
    // hbase:meta said so (wall-clock microseconds; 0: not seen).
    return at[0] + " " + at[1] + " " + at[2];
  }

  private List<ServerName> liveServersExcept(ServerName except) {
    List<ServerName> out = new ArrayList<>();
    for (int i = 0; i < mc.slots(); i++) {
      HRegionServer rs = mc.regionServer(i);
      if (rs != null && !rs.getServerName().equals(except)) {
        out.add(rs.getServerName());
      }
    }
    return out;
  }

  private String moveAll(int slot) throws Exception {
    HMaster m = needMaster();
    ServerName from = needRS(slot).getServerName();
    List<ServerName> targets = liveServersExcept(from);
    if (targets.isEmpty()) {
      throw new UsageException("move-all: no other live region server");
    }
    try (Admin admin = mc.adminConn.getAdmin()) {
      int n = 0;
      for (RegionInfo ri : admin.getRegions(from)) {
        moveAndWait(admin, m, ri, targets.get(n++ % targets.size()));
      }
      waitFor("no region on " + from, WAIT_MS, () -> admin.getRegions(from).isEmpty());
    }
    return "";
  }

  private String moveMeta(int slot) throws Exception {
    HMaster m = needMaster();
    RegionInfo meta = RegionInfoBuilder.FIRST_META_REGIONINFO;
    ServerName current = m.getAssignmentManager().getRegionStates().getRegionServerOfRegion(meta);
    ServerName to;
    if (slot >= 0) {
      to = needRS(slot).getServerName();
    } else {
      List<ServerName> others = liveServersExcept(current);
      if (others.isEmpty()) {
        throw new UsageException("move-meta: no other live region server");
      }
      to = others.get(0);
    }
    if (to.equals(current)) {
      return "";
    }
    try (Admin admin = mc.adminConn.getAdmin()) {
      moveAndWait(admin, m, meta, to);
    }
    return "";
  }

  private String balance() throws Exception {
    HMaster m = needMaster();
    boolean ran;
    try (Admin admin = mc.adminConn.getAdmin()) {
      admin.balancerSwitch(true, true);
      try {
        ran = admin.balance();
      } finally {
        admin.balancerSwitch(false, true);
      }
    }
    settle(m, WAIT_MS);
    return Boolean.toString(ran);
  }

  // ---- the KDC

  private Kdc needKdc(String cmd) throws UsageException {
    if (mc.kdc == null) {
      throw new UsageException(cmd + ": not a secure cluster (no KDC)");
    }
    return mc.kdc;
  }

  /**
   * kinit CCACHE LIFETIME RENEWABLE: a TGT for the client principal from its keytab, written
   * to the credential cache file CCACHE (hex of the path). Answers the principal and the TGT's
   * end and renew-till times in Unix milliseconds. See Kdc.kinit for the numbers.
   */
  private String kinit(byte[] path, long lifetimeSeconds, long renewableSeconds) throws Exception {
    Kdc k = needKdc("kinit");
    if (lifetimeSeconds < 0 || lifetimeSeconds > Integer.MAX_VALUE || renewableSeconds > Integer.MAX_VALUE) {
      throw new UsageException("kinit: lifetime " + lifetimeSeconds + " or renewable lifetime "
        + renewableSeconds + " out of range");
    }
    java.io.File f = absoluteFile("kinit", path);
    Kdc.Kinit r = k.kinit(f, lifetimeSeconds, renewableSeconds);
    LOG.info("kinit: TGT for {} until {} (renewable until {}) in {}", r.principal,
      java.time.Instant.ofEpochMilli(r.endMillis), java.time.Instant.ofEpochMilli(r.renewTillMillis), f);
    return r.principal + " " + r.endMillis + " " + r.renewTillMillis;
  }

  /**
   * kdc-clockskew [SECONDS|default]: sets the KDC's allowable clock skew (negative: every
   * client timestamp is outside it) and answers the previous value; without an argument only
   * answers the current one.
   */
  private String kdcClockSkew(String arg) throws Exception {
    Kdc k = needKdc("kdc-clockskew");
    long previous = k.clockSkew();
    if (arg != null) {
      long seconds = arg.equals("default") ? Kdc.DEFAULT_CLOCK_SKEW_SECONDS : parseLong(arg);
      k.setClockSkew(seconds);
      LOG.info("kdc-clockskew: the KDC's allowable clock skew is now {} s (was {} s)", seconds, previous);
    }
    return Long.toString(previous);
  }

  // ---- servers

  /** Waits until the master has no region in transition and no dead server being processed. */
  private void settle(HMaster m, long ms) throws Exception {
    waitFor("regions in transition to settle", ms, () ->
      !m.getAssignmentManager().getRegionStates().hasRegionsInTransition()
        && !m.getServerManager().areDeadServersInProgress());
  }

  private JVMClusterUtil.RegionServerThread threadOf(HRegionServer rs) {
    for (JVMClusterUtil.RegionServerThread t : mc.cluster.getRegionServerThreads()) {
      if (t.getRegionServer() == rs) {
        return t;
      }
    }
    return null;
  }

  private String slowReads(int slot, long delayMs, String share) throws Exception {
    double sh;
    try {
      sh = Double.parseDouble(share);
    } catch (NumberFormatException e) {
      throw new UsageException("slow-reads: share is a number from 0 to 1, not " + Hex.abbreviate(share));
    }
    if (!(sh >= 0 && sh <= 1) || delayMs < 0) {
      throw new UsageException("slow-reads: want a delay of 0 ms or more and a share from 0 to 1");
    }
    SlowReads.set(needRS(slot).getServerName(), TimeUnit.MILLISECONDS.toNanos(delayMs), sh);
    return "";
  }

  private String stopRS(int slot, boolean kill) throws Exception {
    HRegionServer rs = needRS(slot);
    ServerName sn = rs.getServerName();
    JVMClusterUtil.RegionServerThread thread = threadOf(rs);
    if (kill) {
      mc.cluster.killRegionServer(sn);
    } else {
      mc.cluster.stopRegionServer(sn);
    }
    if (thread != null) {
      thread.join(WAIT_MS);
      if (thread.isAlive()) {
        throw new TimeoutException("region server " + slot + " did not stop in " + WAIT_MS + " ms");
      }
      mc.cluster.hbaseCluster.waitOnRegionServer(thread);
    }
    HMaster m = mc.master();
    if (m == null) {
      return "";
    }
    waitFor("the master to see " + sn + " gone", WAIT_MS, () -> !m.getServerManager().isServerOnline(sn));
    if (!liveServersExcept(null).isEmpty()) {
      // Someone can take the regions: wait until they are open elsewhere.
      settle(m, WAIT_MS);
      waitFor("the regions of " + sn + " to move", WAIT_MS, () -> {
        for (RegionState s : m.getAssignmentManager().getRegionStates().getRegionStates()) {
          if (sn.equals(s.getServerName()) && s.isOpened()) {
            return false;
          }
        }
        return true;
      });
    }
    return "";
  }

  private String startRS(int slot) throws Exception {
    if (mc.regionServer(slot) != null) {
      throw new UsageException("region server " + slot + " is already running");
    }
    int port = mc.args.rsPorts.get(slot);
    mc.cluster.startRegionServer("localhost", port);
    waitFor("region server " + slot + " to start", WAIT_MS, () -> {
      HRegionServer rs = mc.regionServer(slot);
      if (rs == null || !rs.isOnline()) {
        return false;
      }
      HMaster m = mc.master();
      return m == null || m.getServerManager().isServerOnline(rs.getServerName());
    });
    HRegionServer rs = mc.regionServer(slot);
    ServerName sn = rs.getServerName();
    mc.lastStartCode[slot] = sn.getStartcode();
    HMaster m = mc.master();
    if (m != null) {
      settle(m, WAIT_MS);
    }
    return sn.getAddress() + " " + sn.getStartcode();
  }

  private String killMaster() throws Exception {
    List<JVMClusterUtil.MasterThread> live = mc.liveMasterThreads();
    if (live.isEmpty()) {
      throw new UsageException("no master is running");
    }
    for (JVMClusterUtil.MasterThread t : live) {
      t.getMaster().abort("killed by hbasetest", null);
    }
    for (JVMClusterUtil.MasterThread t : live) {
      t.join(WAIT_MS);
      if (t.isAlive()) {
        throw new TimeoutException("the master did not stop in " + WAIT_MS + " ms");
      }
      mc.cluster.hbaseCluster.waitOnMaster(t);
    }
    return "";
  }

  private String startMaster() throws Exception {
    if (!mc.liveMasterThreads().isEmpty()) {
      throw new UsageException("a master is already running");
    }
    mc.cluster.startMaster();
    if (!mc.cluster.waitForActiveAndReadyMaster(WAIT_MS)) {
      throw new TimeoutException("the master did not become active in " + WAIT_MS + " ms");
    }
    HMaster m = needMaster();
    settle(m, WAIT_MS);
    ServerName sn = m.getServerName();
    return sn.getAddress() + " " + sn.getStartcode();
  }
}
