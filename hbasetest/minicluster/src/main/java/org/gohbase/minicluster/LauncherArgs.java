package org.gohbase.minicluster;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Command-line options of the launcher. */
final class LauncherArgs {
  File dir;
  int zkPort;
  int masterPort;
  int controlPort;
  List<Integer> rsPorts = new ArrayList<>();
  boolean secure;
  /**
   * hbase.rpc.protection of the servers: one QoP name or a comma list; with a list the servers
   * offer every listed QoP and each client picks one.
   */
  String protection = "privacy";
  boolean aes;
  /**
   * Maximum lifetime, in seconds, of the tickets the KDC issues once the cluster is ready; 0
   * keeps MiniKdc's default (a day).
   */
  long ticketLifetimeSeconds;
  /**
   * The RPC servers overwrite each request buffer when they release it
   * ({@link PoisonReleasedBuffers}), to show a server reading a request after releasing it.
   */
  boolean poisonReleasedBuffers;
  /**
   * Users the client principal may act for (doAs) in secure mode: the servers'
   * hadoop.proxyuser rules for it allow exactly these, from any host.
   */
  List<String> proxyUsers = new ArrayList<>();
  /**
   * Extra configuration of the servers (--conf key=value, repeated), set last, so it overrides
   * the launcher's own settings: call queue sizes, handler counts, coprocessors, replication.
   */
  java.util.LinkedHashMap<String, String> conf = new java.util.LinkedHashMap<>();
  /**
   * Directory of the PEM files (ca.pem, server-keystore.pem) made by the Go side: every RPC
   * server requires TLS with a client certificate, and the servers talk TLS to each other.
   */
  File tlsDir;
  /** With --tls: the servers take plaintext connections on the same ports too. */
  boolean tlsAllowPlaintext;
  /**
   * RPC quotas on (hbase.quota.enabled), with the region servers' quota caches refreshed every
   * second instead of every 5 minutes, so a throttle set by the throttle command applies soon.
   */
  boolean quotas;
  /** A second cluster in this JVM, the destination of replication tests ({@link PeerCluster}). */
  boolean peerCluster;
  /** Region server groups on (HBase 2.x's hbase-rsgroup endpoint and balancer). */
  boolean rsgroups;
  /** HBase's AccessController on a secure cluster (SecurityConf). */
  boolean accessControl;
  /** HBase's VisibilityController on a secure cluster (SecurityConf). */
  boolean visibility;
  /** Static group mapping "user=g1,g2;user2=" of a secure cluster (SecurityConf); null: none. */
  String userGroups;

  /** QoP names from weakest to strongest. */
  private static final List<String> QOPS = Arrays.asList("authentication", "integrity", "privacy");

  static LauncherArgs parse(String[] args) {
    LauncherArgs a = new LauncherArgs();
    for (int i = 0; i < args.length; i++) {
      String k = args[i];
      switch (k) {
        case "--secure":
          a.secure = true;
          continue;
        case "--aes":
          a.aes = true;
          continue;
        case "--poison-released-buffers":
          a.poisonReleasedBuffers = true;
          continue;
        case "--tls-allow-plaintext":
          a.tlsAllowPlaintext = true;
          continue;
        case "--quotas":
          a.quotas = true;
          continue;
        case "--peer-cluster":
          a.peerCluster = true;
          continue;
        case "--rsgroups":
          a.rsgroups = true;
          continue;
        case "--access-control":
          a.accessControl = true;
          continue;
        case "--visibility":
          a.visibility = true;
          continue;
        default:
          break;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value for " + k);
      }
      String v = args[++i];
      switch (k) {
        case "--dir":
          a.dir = new File(v).getAbsoluteFile();
          break;
        case "--zk-port":
          a.zkPort = port(k, v);
          break;
        case "--master-port":
          a.masterPort = port(k, v);
          break;
        case "--control-port":
          a.controlPort = port(k, v);
          break;
        case "--rs-ports":
          for (String p : v.split(",")) {
            a.rsPorts.add(port(k, p));
          }
          break;
        case "--ticket-lifetime":
          a.ticketLifetimeSeconds = ticketLifetime(k, v);
          break;
        case "--tls":
          a.tlsDir = new File(v).getAbsoluteFile();
          break;
        case "--user-groups":
          a.userGroups = v;
          break;
        case "--proxy-users":
          a.proxyUsers = Arrays.asList(v.split(","));
          break;
        case "--conf":
          {
            int eq = v.indexOf('=');
            if (eq <= 0) {
              throw new IllegalArgumentException("--conf takes key=value, not " + v);
            }
            a.conf.put(v.substring(0, eq), v.substring(eq + 1));
          }
          break;
        case "--protection":
          a.protection = String.join(",", parseProtection(v));
          break;
        default:
          throw new IllegalArgumentException("unknown option " + k);
      }
    }
    if (a.dir == null) {
      throw new IllegalArgumentException("--dir is required");
    }
    if (a.zkPort == 0 || a.masterPort == 0 || a.controlPort == 0 || a.rsPorts.isEmpty()) {
      throw new IllegalArgumentException("--zk-port, --master-port, --control-port and --rs-ports are required");
    }
    return a;
  }

  /**
   * The names of a protection list, in order. Each must be authentication, integrity or privacy,
   * once; the Go side sends them in that canonical form.
   */
  static List<String> parseProtection(String v) {
    List<String> out = new ArrayList<>();
    for (String p : v.split(",", -1)) {
      if (!QOPS.contains(p)) {
        throw new IllegalArgumentException(
          "--protection takes authentication, integrity or privacy, or a comma list of them; "
            + "\"" + p + "\" in \"" + v + "\" is none of them");
      }
      if (out.contains(p)) {
        throw new IllegalArgumentException("--protection lists " + p + " twice: " + v);
      }
      out.add(p);
    }
    return out;
  }

  /**
   * The strongest QoP of a protection list: what the launcher's own Java clients ask for. A
   * Java client given the list itself would pick the first listed QoP the server offers, and
   * the launcher's data commands are meant to exercise the strongest protection on offer.
   */
  static String strongestProtection(String v) {
    String best = null;
    for (String p : parseProtection(v)) {
      if (best == null || QOPS.indexOf(p) > QOPS.indexOf(best)) {
        best = p;
      }
    }
    return best;
  }

  private static long ticketLifetime(String k, String v) {
    try {
      long s = Long.parseLong(v.trim());
      if (s <= 0) {
        throw new IllegalArgumentException(k + ": want a positive number of seconds: " + v);
      }
      return s;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(k + ": not a number of seconds: " + v);
    }
  }

  private static int port(String k, String v) {
    try {
      int p = Integer.parseInt(v.trim());
      if (p <= 0 || p > 65535) {
        throw new IllegalArgumentException(k + ": port out of range: " + v);
      }
      return p;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(k + ": not a port: " + v);
    }
  }
}
