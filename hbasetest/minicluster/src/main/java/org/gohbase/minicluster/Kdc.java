package org.gohbase.minicluster;

import java.io.File;
import java.util.Properties;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.kerby.KOptions;
import org.apache.kerby.kerberos.kerb.client.KrbClient;
import org.apache.kerby.kerberos.kerb.client.KrbConfig;
import org.apache.kerby.kerberos.kerb.client.KrbOption;
import org.apache.kerby.kerberos.kerb.server.KdcConfigKey;
import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;
import org.apache.kerby.kerberos.kerb.type.KerberosTime;
import org.apache.kerby.kerberos.kerb.type.kdc.EncKdcRepPart;
import org.apache.kerby.kerberos.kerb.type.ticket.TgtTicket;

/** The embedded KDC of a secure cluster and the principals it issues. */
final class Kdc {
  static final String SERVER_PRINCIPAL = "hbase/localhost";
  static final String CLIENT_PRINCIPAL = "client";
  /** A second client principal, with no rights of its own where authorization is on. */
  static final String GUEST_PRINCIPAL = "guest";

  final MiniKdc kdc;
  final File serverKeytab;
  final File clientKeytab;
  final File guestKeytab;

  Kdc(File dir) throws Exception {
    File work = new File(dir, "kdc");
    if (!work.mkdirs() && !work.isDirectory()) {
      throw new IllegalStateException("cannot create " + work);
    }
    Properties conf = MiniKdc.createConf();
    conf.setProperty(MiniKdc.KDC_BIND_ADDRESS, "localhost");
    conf.setProperty(MiniKdc.TRANSPORT, "TCP");
    kdc = new MiniKdc(conf, work);
    kdc.start(); // also points java.security.krb5.conf at its krb5.conf
    serverKeytab = new File(dir, "hbase.keytab");
    clientKeytab = new File(dir, "client.keytab");
    kdc.createPrincipal(serverKeytab, SERVER_PRINCIPAL);
    kdc.createPrincipal(clientKeytab, CLIENT_PRINCIPAL);
    guestKeytab = new File(dir, "guest.keytab");
    kdc.createPrincipal(guestKeytab, GUEST_PRINCIPAL);
  }

  String realm() {
    return kdc.getRealm();
  }

  String serverPrincipal() {
    return SERVER_PRINCIPAL + "@" + realm();
  }

  String clientPrincipal() {
    return CLIENT_PRINCIPAL + "@" + realm();
  }

  String guestPrincipal() {
    return GUEST_PRINCIPAL + "@" + realm();
  }

  /** The krb5.conf for clients (with the short ticket lifetime once one is set). */
  File krb5conf() {
    return clientKrb5conf != null ? clientKrb5conf : kdc.getKrb5conf();
  }

  /**
   * Short-lived tickets for the clients from now on. It is applied once the cluster is up, not
   * at KDC start: the servers of the cluster share one JVM login, and tickets that expire
   * during a startup would only test Hadoop's relogin, not a client's renewal.
   *
   * Kerby 1.0.1 applies its maximum lifetime only to requests without an end time, and gokrb5
   * and MIT clients always send one (krb5.conf's ticket_lifetime, a day by default). So this
   * both caps the KDC (Kerby reads the setting on each request; MiniKdc keeps its server in a
   * private field) and writes a krb5.conf with ticket_lifetime for the clients, which
   * krb5conf() then returns. The JVM's own Kerberos keeps MiniKdc's file.
   */
  void setMaxTicketLifetime(long seconds) throws Exception {
    server().getKdcConfig().setLong(KdcConfigKey.MAXIMUM_TICKET_LIFETIME, seconds);
    ticketLifetimeSeconds = seconds;
    String conf = new String(
      java.nio.file.Files.readAllBytes(kdc.getKrb5conf().toPath()), java.nio.charset.StandardCharsets.UTF_8);
    String marker = "[libdefaults]";
    int i = conf.indexOf(marker);
    if (i < 0) {
      throw new IllegalStateException(kdc.getKrb5conf() + " has no [libdefaults] section");
    }
    i += marker.length();
    conf = conf.substring(0, i) + "\n    ticket_lifetime = " + seconds + "s" + conf.substring(i);
    File client = new File(kdc.getKrb5conf().getParentFile(), "krb5-client.conf");
    java.nio.file.Files.write(client.toPath(), conf.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    clientKrb5conf = client;
  }

  /** The krb5.conf for clients when setMaxTicketLifetime wrote one. */
  private File clientKrb5conf;

  /** The lifetime set by setMaxTicketLifetime, in seconds; 0 when none was set. */
  private volatile long ticketLifetimeSeconds;

  /** Kerby's allowable clock skew when MiniKdc starts it (KdcConfigKey's default). */
  static final long DEFAULT_CLOCK_SKEW_SECONDS = 300;

  /**
   * The Kerby server inside MiniKdc. MiniKdc keeps it in a private field and offers no getter,
   * and its KdcConfig is what the KDC reads on each request.
   */
  private SimpleKdcServer server() throws ReflectiveOperationException {
    java.lang.reflect.Field f = MiniKdc.class.getDeclaredField("simpleKdc");
    f.setAccessible(true);
    return (SimpleKdcServer) f.get(kdc);
  }

  /**
   * Sets the KDC's allowable clock skew. Kerby reads it from its KdcConfig on each request (the
   * PA-ENC-TIMESTAMP check of an AS-REQ and the authenticator check of a TGS-REQ), so it takes
   * effect on the next request. A negative value rejects every client timestamp: Kerby tests
   * |client time - KDC time| < skew. It answers a TGS-REQ with KRB_AP_ERR_SKEW (37) then, but
   * an AS-REQ with KDC_ERR_PREAUTH_FAILED (24): Kerby 1.0.1 reports a pre-authentication
   * timestamp outside the skew as failed pre-authentication, not as skew.
   */
  void setClockSkew(long seconds) throws ReflectiveOperationException {
    server().getKdcConfig().setLong(KdcConfigKey.ALLOWABLE_CLOCKSKEW, seconds);
  }

  /** The KDC's allowable clock skew in seconds, as it reads it per request. */
  long clockSkew() throws ReflectiveOperationException {
    return server().getKdcConfig().getAllowableClockSkew();
  }

  /** What kinit obtained: the TGT's end and renew-till times, in Unix milliseconds. */
  static final class Kinit {
    final String principal;
    final long endMillis;
    final long renewTillMillis;

    Kinit(String principal, long endMillis, long renewTillMillis) {
      this.principal = principal;
      this.endMillis = endMillis;
      this.renewTillMillis = renewTillMillis;
    }
  }

  /**
   * Logs the client principal in from its keytab with Kerby's client (an AS exchange with this
   * KDC over TCP, like any client) and writes the TGT to ccache as an MIT credential cache
   * (format version 4, what kinit writes and gokrb5 reads), replacing the file.
   *
   * lifetimeSeconds 0 asks for the cluster's ticket lifetime (setMaxTicketLifetime) when set,
   * else a day: Kerby's client always names an end time, which Kerby's KDC then grants as asked
   * (it caps only requests without one), so the lifetime must be asked for here.
   * renewableSeconds below 0 keeps Kerby's default renewable lifetime; 0 asks for a renew-till
   * of now, so the ticket cannot be renewed (Kerby's client always sets RENEWABLE-OK).
   */
  Kinit kinit(File ccache, long lifetimeSeconds, long renewableSeconds) throws Exception {
    long life = lifetimeSeconds > 0 ? lifetimeSeconds
      : ticketLifetimeSeconds > 0 ? ticketLifetimeSeconds : 24 * 3600;
    KrbClient client = new KrbClient(new KrbConfig());
    client.setKdcRealm(kdc.getRealm());
    client.setKdcHost(kdc.getHost());
    client.setKdcTcpPort(kdc.getPort());
    client.setAllowTcp(true);
    client.setAllowUdp(false);
    client.init();
    KOptions o = new KOptions();
    o.add(KrbOption.CLIENT_PRINCIPAL, clientPrincipal());
    o.add(KrbOption.USE_KEYTAB, true);
    o.add(KrbOption.KEYTAB_FILE, clientKeytab);
    o.add(KrbOption.LIFE_TIME, (int) life);
    if (renewableSeconds >= 0) {
      o.add(KrbOption.RENEWABLE_TIME, (int) renewableSeconds);
    }
    TgtTicket tgt = client.requestTgt(o);
    if (ccache.exists() && !ccache.delete()) {
      throw new IllegalStateException("cannot replace " + ccache);
    }
    client.storeTicket(tgt, ccache);
    EncKdcRepPart part = tgt.getEncKdcRepPart();
    KerberosTime renew = part.getRenewTill();
    return new Kinit(clientPrincipal(), part.getEndTime().getTime(), renew == null ? 0 : renew.getTime());
  }

  void stop() {
    kdc.stop();
  }
}
