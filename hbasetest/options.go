package hbasetest

import (
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"
)

// DefaultHBaseVersion is the Maven version of hbase-testing-util used when Options.HBaseVersion
// is empty.
const DefaultHBaseVersion = "2.6.1-hadoop3"

// VersionEnv names the environment variable that, when set, is the HBase version of clusters
// whose Options leave HBaseVersion empty: one suite, run against several versions (make
// test-matrix).
const VersionEnv = "GOHBASE_HBASE_VERSION"

// Protection levels for Options.Protection (HBase's hbase.rpc.protection).
const (
	ProtectionAuthentication = "authentication"
	ProtectionIntegrity      = "integrity"
	ProtectionPrivacy        = "privacy"
)

// Options configures a cluster. The zero value is a plain cluster with one region server on
// free ports.
type Options struct {
	// RegionServers is the number of region servers; 0 means 1.
	RegionServers int
	// Secure turns on Kerberos with an embedded KDC.
	Secure bool
	// Protection is hbase.rpc.protection in secure mode: "authentication", "integrity" or
	// "privacy", or a comma list of them such as "authentication,integrity,privacy"; empty
	// means "privacy". With a list the servers offer every listed QoP in the SASL exchange
	// and each client picks one, so one cluster serves clients of every listed protection.
	// The launcher's own Java clients (data commands, JavaSmoke) use the strongest listed.
	Protection string
	// AES sets hbase.rpc.crypto.encryption.aes.enabled (it only matters with privacy).
	AES bool
	// TicketLifetime, in secure mode, caps the lifetime of the Kerberos tickets the KDC issues
	// once the cluster is ready (rounded up to whole seconds); 0 keeps MiniKdc's default of a
	// day. The servers' own tickets, obtained during startup, keep the default, so a short
	// lifetime (tens of seconds) tests a client's ticket renewal without the servers' relogin.
	// The KDC (Kerby 1.0.1) caps only requests that name no end time, so Cluster.KRB5Conf then
	// is a copy with ticket_lifetime set: clients must use it to get the short tickets.
	TicketLifetime time.Duration
	// PoisonReleasedBuffers makes the RPC servers overwrite every request buffer with the
	// bytes "<released>" (repeated) when they release it. A server that reads a request's
	// bytes after releasing them then sends that poison, every time, instead of another
	// request's bytes once in a while. Diagnostic: it turns off the servers' buffer pooling.
	PoisonReleasedBuffers bool
	// ProxyUsers are the users the client principal may act for (doAs) in a Secure cluster:
	// the servers' hadoop.proxyuser rules for it allow exactly these, from any host.
	ProxyUsers []string
	// TLS makes every RPC server require TLS (HBase 2.6+ native TLS, no plaintext) with a
	// client certificate, and the servers talk TLS to each other. The certificates are made
	// for the cluster; Cluster.TLS has the files and a client configuration.
	TLS bool
	// TLSAllowPlaintext, with TLS, lets the servers take plaintext connections on the same
	// ports too (hbase.server.netty.tls.supportplaintext), to compare TLS with other
	// protections against the same servers.
	TLSAllowPlaintext bool
	// Quotas turns on HBase's RPC quotas (hbase.quota.enabled), with the region servers'
	// quota caches refreshed every second (hbase.quota.refresh.period) instead of every 5
	// minutes, so that Cluster.ThrottleTable takes effect within a second or two. Quotas
	// cannot be switched on in a running cluster; the master creates hbase:quota at startup.
	Quotas bool
	// PeerCluster starts a second cluster in the same JVM, the destination of replication
	// tests: its own master and region server, on free ports, under the parent znode
	// "/hbase-peer" of the first cluster's ZooKeeper (as HBase's own replication tests run
	// their peer), described by Cluster.Peer. Both clusters retry a disabled or unreachable
	// peer every 100 ms to 1 s (HBase waits up to 5 minutes), so that replication resumes
	// within a second or two of an enable. Plain clusters only (not Secure, not TLS); the
	// heap defaults to 1024 MB instead of 768.
	PeerCluster bool
	// RSGroups turns on region server groups as HBase 2.x has them: the hbase-rsgroup
	// module's RSGroupAdminEndpoint on the master (a Conf of hbase.coprocessor.master.classes
	// replaces it: list the endpoint there too) and
	// its RSGroupBasedLoadBalancer. Every server and table starts in the group "default".
	RSGroups bool
	// AccessControl, in a Secure cluster, loads HBase's AccessController on the master and the
	// region servers (hbase.security.authorization on): every call is checked against the
	// permissions in hbase:acl. The client principal (Cluster.ClientPrincipal) is a superuser
	// (hbase.superuser), so the launcher's commands and a test's client may do everything;
	// the guest principal (Cluster.GuestPrincipal) has no permission until one is granted.
	// Cell ACLs are read on tables whose hbase.security.access.early_out attribute is false.
	AccessControl bool
	// Visibility, in a Secure cluster, loads HBase's VisibilityController on the master and
	// the region servers: cells written with a visibility expression are read only with the
	// labels it needs. Cluster.AddVisibilityLabels defines labels and SetVisibilityAuths gives
	// them to users. The client principal is a superuser, as with AccessControl.
	Visibility bool
	// UserGroups, in a Secure cluster, gives users groups on the servers, by short name
	// ({"guest": {"testers"}}), ahead of the OS's groups
	// (hadoop.user.group.static.mapping.overrides): the groups "@group" permissions match.
	UserGroups map[string][]string
	// HBaseVersion is the hbase-testing-util version; empty means DefaultHBaseVersion. A
	// version without "-hadoop3" (2.4.18, the only form of 2.4) is a Hadoop 2 build; the
	// launcher then adds Hadoop 3's Kerby-based MiniKdc, so secure clusters work the same.
	HBaseVersion string

	// Ports; 0 picks a free port. RegionServerPorts, when set, must have one port per
	// region server.
	ZKPort, MasterPort, ControlPort int
	RegionServerPorts               []int

	// StartTimeout bounds building the launcher and starting the cluster; 0 means 5 minutes.
	StartTimeout time.Duration
	// HeapMB is the JVM's maximum heap; 0 means 768.
	HeapMB int
	// FullJIT runs the JVM with its optimising compiler. The default, C1 only, starts faster
	// and uses less CPU, which suits tests; benchmarks want FullJIT.
	FullJIT bool
	// Conf is extra configuration of the servers (hbase-site keys), set after the launcher's
	// own settings so that it overrides them: a tiny call queue
	// ("hbase.ipc.server.max.callqueue.length"), one handler
	// ("hbase.regionserver.handler.count"), coprocessors, region replica replication.
	Conf map[string]string
	// JVMArgs are extra JVM flags (e.g. "-Dsun.security.krb5.debug=true").
	JVMArgs []string
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.RegionServers <= 0 {
		o.RegionServers = 1
	}
	if o.Protection == "" {
		o.Protection = ProtectionPrivacy
	}
	if o.HBaseVersion == "" {
		o.HBaseVersion = os.Getenv(VersionEnv)
	}
	if o.HBaseVersion == "" {
		o.HBaseVersion = DefaultHBaseVersion
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 5 * time.Minute
	}
	if o.HeapMB <= 0 {
		o.HeapMB = 768
		if o.PeerCluster {
			o.HeapMB = 1024
		}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// normalizeProtection checks a protection list and returns it in canonical form: names in
// lower case, no spaces, in the caller's order. HBase itself would also take the SASL names
// (auth, auth-int, auth-conf) but rejects spaces; we take only HBase's names, and tolerate
// spaces and case, so that a typo fails here with a clear message instead of in the JVM.
func normalizeProtection(s string) (string, error) {
	var out []string
	for _, p := range strings.Split(s, ",") {
		name := strings.ToLower(strings.TrimSpace(p))
		switch name {
		case ProtectionAuthentication, ProtectionIntegrity, ProtectionPrivacy:
		case "":
			return "", fmt.Errorf("hbasetest: protection %q has an empty entry; want authentication, integrity or privacy, or a comma list of them", s)
		default:
			return "", fmt.Errorf("hbasetest: protection %q: %q is not authentication, integrity or privacy", s, strings.TrimSpace(p))
		}
		if slices.Contains(out, name) {
			return "", fmt.Errorf("hbasetest: protection %q lists %s twice", s, name)
		}
		out = append(out, name)
	}
	return strings.Join(out, ","), nil
}

// ticketLifetimeSeconds rounds d up to whole seconds, the KDC's unit.
func ticketLifetimeSeconds(d time.Duration) int64 {
	return int64((d + time.Second - 1) / time.Second)
}
