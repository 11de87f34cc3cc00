package org.gohbase.minicluster;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/** Command-line options of the launcher. */
final class LauncherArgs {
  File dir;
  int zkPort;
  int masterPort;
  int controlPort;
  List<Integer> rsPorts = new ArrayList<>();
  boolean secure;
  String protection = "privacy";
  boolean aes;

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
        case "--protection":
          if (!v.equals("authentication") && !v.equals("integrity") && !v.equals("privacy")) {
            throw new IllegalArgumentException("--protection must be authentication, integrity or privacy, not " + v);
          }
          a.protection = v;
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
