package org.gohbase.minicluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.protobuf.generated.ClientProtos.RegionActionResult;
import org.apache.hadoop.hbase.protobuf.generated.VisibilityLabelsProtos.VisibilityLabelsResponse;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.NamespacePermission;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.TablePermission;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.security.visibility.Authorizations;
import org.apache.hadoop.hbase.security.visibility.CellVisibility;
import org.apache.hadoop.hbase.security.visibility.VisibilityClient;

/**
 * The commands of access control and cell-level security, run with the Java client as the
 * cluster's own principal (a superuser): permission listings as AccessControlClient gives
 * them, visibility labels and users' authorizations (VisibilityClient), and the attributes
 * the Java client sets on operations for cell TTLs, ACLs, visibility and authorizations.
 */
final class SecurityCommands {
  private final MiniCluster mc;

  SecurityCommands(MiniCluster mc) {
    this.mc = mc;
  }

  /** Runs command w[0]; null when it is not one of these. */
  String run(String[] w) throws Exception {
    try {
      return dispatch(w);
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      // The Java client's access control and visibility calls declare Throwable.
      throw new java.io.IOException(t);
    }
  }

  private String dispatch(String[] w) throws Throwable {
    switch (w[0]) {
      case "user-permissions":
        // user-permissions REGEX USER FAMILY QUALIFIER: hex words, "-" for none.
        need(w, 5);
        return userPermissions(opt(w[1]), opt(w[2]), optBytes(w[3]), optBytes(w[4]));
      case "visibility-labels":
        // visibility-labels LABEL...: defines the labels (hex).
        need(w, 2);
        return check("visibility-labels", VisibilityClient.addLabels(mc.adminConn, strings(w, 1)));
      case "visibility-auths":
      case "visibility-clear-auths":
        // visibility-auths USER LABEL...: gives (or takes back) labels to a user (hex).
        need(w, 3);
        String user = str(w[1]);
        String[] labels = strings(w, 2);
        return check(w[0], w[0].equals("visibility-auths")
          ? VisibilityClient.setAuths(mc.adminConn, labels, user)
          : VisibilityClient.clearAuths(mc.adminConn, labels, user));
      case "cell-security-attributes":
        // cell-security-attributes TTLMS USER ACTIONS EXPRESSION LABEL...: the attributes the
        // Java client puts on a Put and a Get for these settings (hex; "-" for none).
        need(w, 5);
        return attributes(Long.parseLong(w[1]), opt(w[2]), w[3], opt(w[4]), strings(w, 5));
      default:
        return null;
    }
  }

  private static void need(String[] w, int min) throws Commands.UsageException {
    if (w.length < min) {
      throw new Commands.UsageException(w[0] + ": wrong number of arguments (" + (w.length - 1) + ")");
    }
  }

  private static String str(String hex) {
    return new String(Hex.decode(hex), StandardCharsets.UTF_8);
  }

  private static String opt(String hex) {
    return hex.equals("-") ? null : str(hex);
  }

  private static byte[] optBytes(String hex) {
    return hex.equals("-") ? null : Hex.decode(hex);
  }

  private static String[] strings(String[] w, int from) {
    String[] out = new String[w.length - from];
    for (int i = from; i < w.length; i++) {
      out[i - from] = str(w[i]);
    }
    return out;
  }

  /**
   * What AccessControlClient.getUserPermissions lists for a table regular expression ("" or
   * null: global; "@ns": namespaces), narrowed to a family and qualifier when given, of one
   * user when given. One word per permission:
   * perm=USER,SCOPE,NAMESPACE,TABLE,FAMILY,QUALIFIER,ACTIONS with the names in hex and the
   * actions' names joined by '+' ("-" for an empty name).
   */
  private String userPermissions(String regex, String user, byte[] family, byte[] qualifier) throws Throwable {
    List<UserPermission> perms;
    String u = user == null ? "" : user;
    if (family == null) {
      perms = AccessControlClient.getUserPermissions(mc.adminConn, regex, u);
    } else {
      perms = AccessControlClient.getUserPermissions(mc.adminConn, regex, family, qualifier, u);
    }
    StringBuilder b = new StringBuilder().append(perms.size());
    for (UserPermission up : perms) {
      Permission p = up.getPermission();
      String ns = "", table = "";
      byte[] fam = null, qual = null;
      if (p instanceof NamespacePermission) {
        ns = ((NamespacePermission) p).getNamespace();
      } else if (p instanceof TablePermission) {
        TablePermission tp = (TablePermission) p;
        table = tp.getTableName().getNameAsString();
        fam = tp.getFamily();
        qual = tp.getQualifier();
      }
      List<String> acts = new ArrayList<>();
      for (Permission.Action a : p.getActions()) {
        acts.add(a.name());
      }
      b.append(" perm=").append(hex(up.getUser())).append(',').append(p.getAccessScope())
        .append(',').append(hex(ns)).append(',').append(hex(table))
        .append(',').append(Hex.encode(fam))
        .append(',').append(Hex.encode(qual))
        .append(',').append(String.join("+", acts));
    }
    return b.toString();
  }

  private static String hex(String s) {
    return Hex.encode(s.getBytes(StandardCharsets.UTF_8));
  }

  /** The response's per-label failures as an error; "" when every label went through. */
  private static String check(String cmd, VisibilityLabelsResponse resp) throws Commands.UsageException {
    StringBuilder errs = new StringBuilder();
    for (RegionActionResult r : resp.getResultList()) {
      if (r.hasException()) {
        String v = r.getException().getValue().toStringUtf8();
        int nl = v.indexOf('\n');
        errs.append(' ').append(nl > 0 ? v.substring(0, nl) : v);
      }
    }
    if (errs.length() > 0) {
      throw new Commands.UsageException(cmd + ":" + errs);
    }
    return "";
  }

  /** ttl=, acl=, visibility= of a Put and authorizations= of a Get, in hex. */
  private static String attributes(long ttl, String user, String actions, String expression, String[] labels) {
    Put put = new Put(new byte[] {'r'});
    put.setTTL(ttl);
    if (user != null) {
      List<Permission.Action> acts = new ArrayList<>();
      for (String a : actions.split("\\+")) {
        acts.add(Permission.Action.valueOf(a));
      }
      put.setACL(user, Permission.newBuilder().withActions(acts.toArray(new Permission.Action[0])).build());
    }
    if (expression != null) {
      put.setCellVisibility(new CellVisibility(expression));
    }
    Get get = new Get(new byte[] {'r'});
    get.setAuthorizations(new Authorizations(labels));
    return "ttl=" + Hex.encode(put.getAttribute("_ttl"))
      + " acl=" + Hex.encode(put.getACL())
      + " visibility=" + Hex.encode(put.getAttribute("VISIBILITY"))
      + " authorizations=" + Hex.encode(get.getAttribute("VISIBILITY"));
  }
}
