package org.gohbase.minicluster;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.access.AccessController;
import org.apache.hadoop.hbase.security.access.PermissionStorage;
import org.apache.hadoop.hbase.security.visibility.VisibilityConstants;
import org.apache.hadoop.hbase.security.visibility.VisibilityController;
import org.apache.hadoop.security.Groups;

/**
 * Authorization on a secure cluster: HBase's AccessController (--access-control) and
 * VisibilityController (--visibility) on the master and the region servers, the client
 * principal as the one superuser besides the servers' own, and a static group mapping
 * (--user-groups) so that group grants ("@group") can be tested without OS accounts.
 */
final class SecurityConf {
  private SecurityConf() {}

  private static final String MASTER_CPS = "hbase.coprocessor.master.classes";
  private static final String REGION_CPS = "hbase.coprocessor.region.classes";
  private static final String RS_CPS = "hbase.coprocessor.regionserver.classes";

  /** Adds the coprocessors and settings the arguments ask for to the cluster configuration. */
  static void apply(Configuration c, LauncherArgs a, Kdc kdc) {
    if (!a.secure) {
      return;
    }
    if (a.userGroups != null) {
      // "user=g1,g2;other=": Hadoop's Groups consults these before its mapping provider. The
      // JVM keeps one Groups; make it now from this configuration, before anything asks.
      c.set("hadoop.user.group.static.mapping.overrides", a.userGroups);
      Groups.getUserToGroupsMappingServiceWithLoadedConfiguration(c);
    }
    if (!a.accessControl && !a.visibility) {
      return;
    }
    c.setBoolean("hbase.security.authorization", true);
    // The servers' own principal is a superuser anyway; the client principal is made one so
    // that the launcher's data commands and a test's client may do everything, and the guest
    // principal is the user without rights.
    c.set("hbase.superuser", Kdc.CLIENT_PRINCIPAL);
    if (a.accessControl) {
      add(c, MASTER_CPS, AccessController.class.getName());
      add(c, REGION_CPS, AccessController.class.getName());
      add(c, RS_CPS, AccessController.class.getName());
    }
    if (a.visibility) {
      add(c, MASTER_CPS, VisibilityController.class.getName());
      add(c, REGION_CPS, VisibilityController.class.getName());
    }
  }

  private static void add(Configuration c, String key, String cls) {
    String v = c.get(key, "");
    c.set(key, v.isEmpty() ? cls : v + "," + cls);
  }

  /**
   * Waits until the tables the coprocessors keep their state in are open: hbase:acl (the
   * master creates it once it has started) and hbase:labels. Until then grants and labelled
   * writes fail.
   */
  static void waitReady(HBaseTestingUtility util, LauncherArgs a) throws IOException, InterruptedException {
    if (!a.secure) {
      return;
    }
    if (a.accessControl) {
      waitTable(util, PermissionStorage.ACL_TABLE_NAME);
    }
    if (a.visibility) {
      waitTable(util, VisibilityConstants.LABELS_TABLE_NAME);
    }
  }

  private static void waitTable(HBaseTestingUtility util, TableName tn) throws IOException, InterruptedException {
    util.waitTableAvailable(tn, 120_000);
  }
}
