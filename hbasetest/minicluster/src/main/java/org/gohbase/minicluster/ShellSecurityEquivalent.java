package org.gohbase.minicluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.protobuf.generated.ClientProtos.RegionActionResult;
import org.apache.hadoop.hbase.protobuf.generated.VisibilityLabelsProtos.VisibilityLabelsResponse;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.NamespacePermission;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.TablePermission;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.security.visibility.VisibilityClient;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The Java calls the HBase shell's security and visibility labels commands make, for
 * hbasectl's secure corpus ("shell-java grant ...", as ShellEquivalent's other operations), and
 * the state those commands leave as the Java client lists it: permissions, labels and
 * authorizations. Words are plain text (names without spaces); "-" stands for none.
 */
final class ShellSecurityEquivalent {
  private ShellSecurityEquivalent() {}

  /** Runs shell-java operation w[1]; null when it is not one of these. */
  static String run(Connection conn, String[] w) throws Exception {
    if (w.length < 2) {
      return null;
    }
    try {
      return dispatch(conn, w);
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      // AccessControlClient and VisibilityClient declare Throwable.
      throw new java.io.IOException(t);
    }
  }

  private static String dispatch(Connection conn, String[] w) throws Throwable {
    String[] rest = Arrays.copyOfRange(w, 2, w.length);
    switch (w[1]) {
      case "grant":
        // grant USER ACTIONS [@NS | TABLE [FAMILY [QUALIFIER]]]: as the shell's grant.
        grant(conn, rest);
        return "";
      case "revoke":
        // revoke USER [@NS | TABLE [FAMILY [QUALIFIER]]]: as the shell's revoke.
        revoke(conn, rest);
        return "";
      case "add-labels":
        return check(w[1], VisibilityClient.addLabels(conn, rest));
      case "set-auths":
        return check(w[1], VisibilityClient.setAuths(conn, Arrays.copyOfRange(rest, 1, rest.length), rest[0]));
      case "clear-auths":
        return check(w[1], VisibilityClient.clearAuths(conn, Arrays.copyOfRange(rest, 1, rest.length), rest[0]));
      case "perms":
        // perms REGEX|- [USER]: AccessControlClient.getUserPermissions, one word a permission.
        return perms(conn, rest[0].equals("-") ? null : rest[0], rest.length > 1 ? rest[1] : "");
      case "labels":
        // labels REGEX: VisibilityClient.listLabels, sorted.
        return sorted(VisibilityClient.listLabels(conn, rest[0]).getLabelList());
      case "auths":
        // auths USER: VisibilityClient.getAuths, sorted.
        return sorted(VisibilityClient.getAuths(conn, rest[0]).getAuthList());
      default:
        return null;
    }
  }

  /** The labels the shell would report refused, as an error; "" when none was. */
  private static String check(String op, VisibilityLabelsResponse resp) throws Commands.UsageException {
    for (RegionActionResult r : resp.getResultList()) {
      if (r.hasException()) {
        throw new Commands.UsageException(op + ": " + r.getException().getValue().toStringUtf8().split("\n")[0]);
      }
    }
    return "";
  }

  private static void grant(Connection conn, String[] a) throws Throwable {
    Permission.Action[] acts = new Permission(Bytes.toBytes(a[1])).getActions();
    if (a.length == 2) {
      AccessControlClient.grant(conn, a[0], acts);
    } else if (a[2].startsWith("@")) {
      AccessControlClient.grant(conn, a[2].substring(1), a[0], acts);
    } else {
      AccessControlClient.grant(conn, TableName.valueOf(a[2]), a[0], opt(a, 3), opt(a, 4), acts);
    }
  }

  private static void revoke(Connection conn, String[] a) throws Throwable {
    if (a.length == 1) {
      AccessControlClient.revoke(conn, a[0], new Permission.Action[0]);
    } else if (a[1].startsWith("@")) {
      AccessControlClient.revoke(conn, a[1].substring(1), a[0]);
    } else {
      AccessControlClient.revoke(conn, TableName.valueOf(a[1]), a[0], opt(a, 2), opt(a, 3));
    }
  }

  private static byte[] opt(String[] a, int i) {
    return i < a.length ? Bytes.toBytes(a[i]) : null;
  }

  private static String perms(Connection conn, String regex, String user) throws Throwable {
    List<String> out = new ArrayList<>();
    for (UserPermission up : AccessControlClient.getUserPermissions(conn, regex, user)) {
      Permission p = up.getPermission();
      String where = "global";
      if (p instanceof NamespacePermission) {
        where = "@" + ((NamespacePermission) p).getNamespace();
      } else if (p instanceof TablePermission) {
        TablePermission tp = (TablePermission) p;
        where = tp.getTableName().getNameAsString() + "," + binary(tp.getFamily()) + "," + binary(tp.getQualifier());
      }
      List<String> acts = new ArrayList<>();
      for (Permission.Action a : p.getActions()) {
        acts.add(a.name());
      }
      out.add(up.getUser() + "/" + where + "/" + String.join("+", acts));
    }
    Collections.sort(out);
    return out.size() + " " + String.join(" ", out);
  }

  private static String binary(byte[] b) {
    return b == null ? "" : Bytes.toStringBinary(b);
  }

  private static String sorted(List<com.google.protobuf.ByteString> bs) {
    List<String> out = new ArrayList<>();
    for (com.google.protobuf.ByteString b : bs) {
      out.add(Bytes.toStringBinary(b.toByteArray()));
    }
    Collections.sort(out);
    return out.size() + " " + String.join(" ", out);
  }
}
