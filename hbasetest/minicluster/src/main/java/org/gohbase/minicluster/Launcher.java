package org.gohbase.minicluster;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a mini cluster and serves the line protocol (see the Go package hbasetest) on stdin and
 * on a loopback control port. Stops on "stop", SIGINT, SIGTERM and when stdin closes.
 */
public final class Launcher {
  private static final Logger LOG = LoggerFactory.getLogger(Launcher.class);
  private static final long STOP_LIMIT_MS = 50_000;

  private final LauncherArgs args;
  private final PrintStream stdout;
  private volatile MiniCluster cluster;
  private volatile Commands commands;
  private final Object stopLock = new Object();
  private boolean stopped;

  private Launcher(LauncherArgs args, PrintStream stdout) {
    this.args = args;
    this.stdout = stdout;
  }

  public static void main(String[] argv) {
    // Only protocol lines go to stdout; anything else that prints there goes to stderr.
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    LauncherArgs a;
    try {
      a = LauncherArgs.parse(argv);
    } catch (IllegalArgumentException e) {
      out.println("ERR " + e.getMessage());
      System.exit(2);
      return;
    }
    new Launcher(a, out).run();
  }

  private void run() {
    Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "hbasetest-stop"));
    ServerSocket control;
    try {
      checkPortsFree();
      control = new ServerSocket();
      control.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), args.controlPort), 16);
    } catch (Exception e) {
      fail("ERR " + oneLine(e));
      return;
    }
    Thread stdin = new Thread(this::serveStdin, "hbasetest-stdin");
    stdin.setDaemon(true);
    stdin.start();
    long t0 = System.nanoTime();
    try {
      MiniCluster c = new MiniCluster(args);
      cluster = c;
      commands = new Commands(c, this::stopAndExit);
    } catch (Throwable e) {
      LOG.error("cluster did not start", e);
      fail("ERR cluster did not start: " + oneLine(e));
      return;
    }
    if (args.secure && args.ticketLifetimeSeconds > 0) {
      try {
        cluster.kdc.setMaxTicketLifetime(args.ticketLifetimeSeconds);
      } catch (Throwable e) {
        LOG.error("cannot set the KDC's ticket lifetime", e);
        fail("ERR cannot set the KDC's ticket lifetime: " + oneLine(e));
        return;
      }
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    LOG.info("cluster ready in {} ms", ms);
    StringBuilder ready = new StringBuilder("READY");
    ready.append(" zk=").append(cluster.zkQuorum());
    ready.append(" znode=").append(cluster.znodeParent());
    ready.append(" master=localhost:").append(args.masterPort);
    ready.append(" control=127.0.0.1:").append(control.getLocalPort());
    ready.append(" startup_ms=").append(ms);
    if (cluster.peer != null) {
      ready.append(cluster.peer.readyFields());
    }
    if (args.secure) {
      Kdc k = cluster.kdc;
      ready.append(" krb5=").append(k.krb5conf().getAbsolutePath());
      ready.append(" principal=").append(k.clientPrincipal());
      ready.append(" keytab=").append(k.clientKeytab.getAbsolutePath());
      ready.append(" server_principal=").append(k.serverPrincipal());
      ready.append(" guest_principal=").append(k.guestPrincipal());
      ready.append(" guest_keytab=").append(k.guestKeytab.getAbsolutePath());
    }
    synchronized (stdout) {
      stdout.println(ready);
    }
    serveControl(control);
  }

  /** Fails before the cluster is up: the reason goes to stdout, then exit 1. */
  private void fail(String line) {
    synchronized (stdout) {
      stdout.println(line);
    }
    System.exit(1);
  }

  private void checkPortsFree() throws IOException {
    checkPort("zookeeper", args.zkPort);
    checkPort("master", args.masterPort);
    for (int i = 0; i < args.rsPorts.size(); i++) {
      checkPort("region server " + i, args.rsPorts.get(i));
    }
  }

  private static void checkPort(String what, int port) throws IOException {
    for (String host : new String[] {"127.0.0.1", "0.0.0.0"}) {
      try (ServerSocket s = new ServerSocket()) {
        s.setReuseAddress(false);
        s.bind(new InetSocketAddress(host, port));
      } catch (IOException e) {
        throw new IOException(what + " port " + port + " is in use (" + e.getMessage() + ")");
      }
    }
  }

  private void serveStdin() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        String answer = answer(line);
        synchronized (stdout) {
          stdout.println(answer);
        }
      }
    } catch (IOException e) {
      LOG.warn("reading stdin", e);
    }
    LOG.info("stdin closed: stopping");
    System.exit(0);
  }

  private void serveControl(ServerSocket control) {
    while (true) {
      Socket s;
      try {
        s = control.accept();
      } catch (IOException e) {
        LOG.warn("control port closed", e);
        return;
      }
      Thread t = new Thread(() -> serveConnection(s), "hbasetest-control");
      t.setDaemon(true);
      t.start();
    }
  }

  private void serveConnection(Socket s) {
    try (s;
         BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8), 1 << 16);
         Writer out = new BufferedWriter(new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8), 1 << 16)) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        out.write(answer(line));
        out.write('\n');
        out.flush();
      }
    } catch (IOException e) {
      LOG.debug("control connection", e);
    }
  }

  private String answer(String line) {
    Commands c = commands;
    if (c == null) {
      String w = line.trim();
      if (w.equals("stop")) {
        stopAndExit();
      }
      return "ERR cluster is still starting";
    }
    return c.execute(line);
  }

  /** For the stop command: stop, then exit (the answer is written by then). */
  private void stopAndExit() {
    stop();
    Thread t = new Thread(() -> {
      try {
        Thread.sleep(200);
      } catch (InterruptedException ignored) {
        // exiting anyway
      }
      System.exit(0);
    }, "hbasetest-exit");
    t.setDaemon(true);
    t.start();
  }

  /** Stops once; a second caller (the shutdown hook after "stop") waits for the first. */
  private void stop() {
    synchronized (stopLock) {
      if (stopped) {
        return;
      }
      stopped = true;
      stopLocked();
    }
  }

  private void stopLocked() {
    Thread watchdog = new Thread(() -> {
      try {
        Thread.sleep(STOP_LIMIT_MS);
        System.err.println("hbasetest: stop took too long, halting");
        deleteDir(args.dir);
        Runtime.getRuntime().halt(1);
      } catch (InterruptedException ignored) {
        // stopped in time
      }
    }, "hbasetest-stop-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    MiniCluster c = cluster;
    if (c != null) {
      LOG.info("stopping the cluster");
      c.stop();
    }
    deleteDir(args.dir);
    watchdog.interrupt();
    if (c != null && c.zooKeeperStopped()) {
      // The servers and the exit's shutdown hooks would wait on ZooKeeper for a minute.
      System.out.flush();
      Runtime.getRuntime().halt(0);
    }
  }

  private static void deleteDir(File dir) {
    Path root = dir.toPath();
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("hbasetest: removing " + dir + ": " + e);
    }
  }

  /** An exception as one protocol-safe line, with its causes. */
  static String oneLine(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null && b.length() < 600; t = t.getCause()) {
      if (b.length() > 0) {
        b.append(": ");
      }
      String m = t.getMessage();
      b.append(t.getClass().getSimpleName());
      if (m != null) {
        b.append(" ").append(m);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    String s = b.toString().replaceAll("[\\r\\n\\t]+", " ");
    return s.length() > 1000 ? s.substring(0, 1000) + "..." : s;
  }
}
