// Package hbasetest runs a real Apache HBase mini cluster for tests, in the spirit of
// net/http/httptest.
//
// The cluster is a JVM running the small Maven project in the minicluster directory (an
// in-process HBaseTestingUtility: one master, N region servers, ZooKeeper, local filesystem,
// optionally an embedded Kerberos KDC). The launcher is built on first use with Maven and
// cached per source hash and HBase version, so later runs neither rebuild nor touch the
// network. Start and StartT start a cluster and wait until it is ready; every control
// command of the launcher has a Go method that returns a *CommandError when the launcher
// answers ERR.
//
// A test package usually shares one cluster, started by the first test that needs it (so that
// a run of unit tests starts no JVM) and stopped after the last:
//
//	var shared = hbasetest.NewShared(hbasetest.Options{RegionServers: 3})
//
//	func TestMain(m *testing.M) { os.Exit(shared.Run(m)) }
//
//	func TestPut(t *testing.T) {
//		cluster := shared.Cluster(t) // skipped under -short or GOHBASE_SKIP_CLUSTER=1
//		client, err := hbase.NewClient(cluster.ZKQuorum)
//		if err != nil {
//			t.Fatal(err)
//		}
//		defer client.Close()
//		...
//	}
//
// A cluster never outlives the process that started it: the launcher stops when its standard
// input closes, so even a test binary killed with SIGKILL leaves no JVM behind.
//
// # Line protocol
//
// The launcher reads commands on its standard input and on a loopback TCP control port (one
// command per line; a TCP connection may send many). Words are separated by one or more
// spaces. Every answer is exactly one line: "OK" followed by the result words, or
// "ERR <reason>".
//
// Byte strings (rows, families, qualifiers, values, split keys, region names) are written in
// hexadecimal (either case on input, lower case on output) so that every byte value 0x00-0xff
// and values of many megabytes pass unchanged; the empty byte string is written "-". Table
// names are written as they are ("ns:table" or "table"). A record in an answer is one word
// made of comma-separated fields, prefixed by its kind.
//
//	status                          OK master=<host:port>,<startcode>,<active|dead> rs=<index>,<host:port>,<startcode>,<live|dead> ...
//	regions [table]                 OK region=<table>,<encoded>,<name>,<start>,<end>,<index>,<host:port>,<startcode> ...
//	                                the primaries (replica 0) alone
//	replicas <table>                OK replica=<table>,<encoded>,<name>,<start>,<end>,<replica id>,<index>,<host:port>,<startcode>,<state>,<state index>,<serving index>,<reads|-> ...
//	                                every replica of every region: the server hbase:meta names
//	                                (index -1, "-" and 0 when none), the master's state of it
//	                                and the server that state names, the server that has it
//	                                open (-1: none) and whether it serves reads there
//	                                (Cluster.Replicas)
//	create <table> <fam>[,<fam>...] [replication=<n>] [splitkey ...]
//	                                with replication=n, REGION_REPLICATION n; waits until every
//	                                replica is open
//	drop|disable|enable|truncate <table>
//	put <table> <row> <fam> <qual> <value>
//	get <table> <row>               OK cell=<row>,<fam>,<qual>,<timestamp>,<value> ...
//	scan <table> [start [stop]]     OK cell=... ...
//	increment <table> <row> <fam> <qual> <delta>   OK <new value, decimal>
//	delete <table> <row> [fam [qual]]
//	flush|compact|major-compact <table>          (compactions wait until finished)
//	split <table> <splitkey>        OK <encoded daughter> <encoded daughter> <closed> <left open> <left in meta> <right open> <right in meta>
//	                                waits for both daughters; the times (wall-clock µs since the
//	                                epoch, 0: not seen) are when the parent stopped serving, and
//	                                when each daughter took requests and hbase:meta said it open
//	merge <encoded> <encoded>       OK <encoded merged region>                  (adjacent regions)
//	move <encoded> <index>          OK <closed> <open> <in meta>  moves a region to the region server
//	                                with that index; times as for split. A secondary replica's
//	                                encoded name moves that replica alone
//	move-all <index>                moves every region of that server to the other live servers
//	move-meta [index]               moves hbase:meta (to another server when no index is given)
//	balance                         OK <true|false>  (the balancer is otherwise off)
//	kill-rs|stop-rs <index>         abort (crash) or cleanly stop a region server; when another
//	                                server is live, waits until the master has reopened its regions there
//	start-rs|restart-rs <index>     OK <host:port> <startcode>  (same port, new start code)
//	kill-master                     aborts the master
//	start-master                    OK <host:port> <startcode>
//	stop-zk                         stops ZooKeeper; HBase serves on for a while (registry tests)
//	throttle <table> <n>            limits the table to n requests a second on each region server
//	                                (0 removes the limit); needs Options.Quotas; the servers apply
//	                                it within about a second
//	quotas                          OK quota=<user>,<table>,<namespace>,<region server>,<kind>[,...] ...
//	                                every quota as the Java Admin's getQuota reads hbase:quota, one
//	                                word per setting, names in hex; kind throttle,<type>,<limit>,<unit>,<scope>,
//	                                bypass,<true|false>, space,<limit>,<policy> or space-remove
//	request-log slow|large <limit> and|or [region=<r>] [table=<t>] [user=<u>] [client=<c>] [servers=<s>]
//	                                OK rec=<start ms>,<processing>,<queue>,<size>,<block bytes>,<fs read>,<gets>,<mutations>,<service calls>,<client>,<class>,<method>,<details>,<param>,<user>,<region>,<conn attrs>,<req attrs> ...
//	                                every live region server's (or those of servers,
//	                                host:port;...) slow or large request log as the Java
//	                                Admin's getLogEntries returns it (strings and filter values
//	                                in hex; attributes as <name>=<hex value>;... in hex)
//	request-log clear               OK <true|false> ...  clears them (clearSlowLogResponses)
//	rsgroups                        OK group=<name>,<servers>,<tables>,<config> ...  every region
//	                                server group as RSGroupAdminClient lists it, by name; servers
//	                                (host:port) and tables sorted and joined with ';', the
//	                                configuration as <name>=<value>;..., each in hex; needs
//	                                Options.RSGroups
//	slow-reads <index> <ms> <share> delays that share (0 to 1) of the Gets the region server
//	                                serves by <ms> each, on the server side (share 0 ends it)
//	secondary-gets                  OK <n>  Gets served by secondary region replicas so far, on
//	                                every server (Cluster.SecondaryGets)
//	replication-peers               OK peer=<id> enabled=<bool> key=<cluster key> ... the Java
//	                                Admin's listReplicationPeers, one key=value word per field,
//	                                strings in hex (Cluster.ReplicationPeers)
//	thread-dump <path>              OK <n>  every thread of the JVM, full stacks and locks, into
//	                                the file <path> (hex of an absolute path; Cluster.ThreadDump)
//	create-recorded <table> <fam>   a table with one family whose regions record each Get,
//	                                mutation and scan opening (the RequestRecorder observer)
//	recorded <table> [clear]        OK <n> <op>/<row>/<header priority>/<priority>/<request attrs>/<connection attrs> ...
//	                                attributes as <name>=<value>,... in hex, "." for none; a header
//	                                without priority is -1 (Cluster.Recorded)
//	kinit <ccache> <life> <renew>   OK <principal> <end ms> <renew-till ms>   (secure only) a TGT for
//	                                the client principal from its keytab, written to the MIT
//	                                credential cache file <ccache> (hex of an absolute path);
//	                                <life> seconds, 0: the ticket lifetime option, else a day;
//	                                <renew> seconds, 0: not renewable, -1: Kerby's default
//	kdc-clockskew [seconds|default] OK <previous seconds>  (secure only) sets the KDC's allowable
//	                                clock skew (default 300; negative rejects every client time)
//	admin-describe <table>          OK T:<key>=<value> F:<fam>:<key>=<value> TG:<getter>=<value> FG:<fam>:<getter>=<value> ...
//	                                the Java Admin's getDescriptor, values in hex (Cluster.JavaDescribe)
//	admin-state [table]             OK <switch>=<value> ...  the Java Admin's switches, decommissioned
//	                                servers, a table's compaction state (Cluster.JavaAdminState)
//	admin-procedures|admin-locks    OK <json>  the Java Admin's getProcedures, getLocks (hex)
//	admin-snapshots                 OK <name>/<table>/<type>/<owner>/<ttl s>/<created ms> ...
//	admin-server-regions <host,port,startcode>   OK <region name> ...  the Java Admin's
//	                                getRegions(server), hex (Cluster.JavaServerRegions)
//	admin-split-keys <start> <end> <n>   OK <key> ...  createTable(desc, start, end, n)'s split keys
//	live-site <key> [value]         sets (no value: removes) key in the configuration file the
//	                                servers read again on update_config (Cluster.SetLiveSite)
//	server-conf <index|master> <key>   OK <value|->  key in that server's live configuration
//	server-wals <index>             OK <file> ...  the file names of the region server's current
//	                                WALs, hex (Cluster.ServerWALs)
//	region-state <encoded>          OK state=<hex> server=<hex> | -  the active master's state of
//	                                the region (Cluster.MasterRegionState)
//	hold-table-lock <table>         the master takes an exclusive lock of the table (a
//	                                LockProcedure) and keeps it (Cluster.HoldTableLock)
//	release-table-lock <table>      releases it (Cluster.ReleaseTableLock)
//	user-permissions <regex> <user> <fam> <qual>  OK <n> perm=<user>,<scope>,<ns>,<table>,<fam>,<qual>,<ACTION+...> ...
//	                                (Options.AccessControl) what AccessControlClient.getUserPermissions
//	                                lists; arguments in hex, "-" for none (Cluster.JavaUserPermissions)
//	visibility-labels <label>...    (Options.Visibility) defines the labels (hex)
//	visibility-auths|visibility-clear-auths <user> <label>...   gives a user labels, or takes them back
//	cell-security-attributes <ttl ms> <user> <ACTION+...> <expression> [label...]
//	                                OK ttl=<hex> acl=<hex> visibility=<hex> authorizations=<hex>: the
//	                                attributes the Java client sets (Cluster.JavaCellSecurityAttributes)
//	aggregate <fn> <table> <long|double> <fam> <quals> <start> <stop> <filter> <includestop>
//	                                OK null|long:<n>|double:<16 hex digits of the bits>  Java's
//	                                AggregationClient: fn rowcount, sum, max, min, avg, std or
//	                                median, with LongColumnInterpreter or DoubleColumnInterpreter,
//	                                on a scan of <fam> ("-": none), <quals> (hex words joined by
//	                                ",", "-": the family), from <start> to <stop>, <filter> the hex
//	                                of a filter in HBase's filter language ("-": none)
//	vis-labels <regex>              OK <label> ...  Java's VisibilityClient.listLabels (<regex> in
//	                                hex, "-": every label), as the cluster's own user
//	vis-auths <user>                OK <label> ...  Java's VisibilityClient.getAuths of <user>
//	stop                            stops the cluster and removes its directory
//
// Admin commands wait for their effect (a split's daughters open, a moved region open on its
// target, ...) for up to two minutes. Data commands (put, get, scan, increment, delete) use the
// standard Java client, as the client principal in secure mode, so they double as
// interoperability checks.
//
// Region server indexes are stable slots: index i always uses the i-th region server port,
// also after a restart.
//
// In secure mode the cluster uses Kerberos (realm EXAMPLE.COM, server principal
// hbase/localhost@EXAMPLE.COM); Cluster holds the krb5.conf path, the client principal and its
// keytab, and a second principal, the guest, and its keytab. Every host name the cluster
// advertises is "localhost" on 127.0.0.1. Options.AccessControl and Options.Visibility load
// HBase's AccessController and VisibilityController, with the client principal a superuser
// and the guest without rights; Options.UserGroups gives users groups for "@group" grants.
//
// Options.Protection may list several protections ("authentication,integrity,privacy"), as
// hbase.rpc.protection may: the servers then offer every listed QoP in the SASL exchange and
// each client picks one, so one cluster serves clients of every listed protection (the
// encryption benchmarks compare modes on one cluster this way). The launcher's own Java
// clients ask for the strongest listed.
//
// Region replicas: CreateTableWith makes a table of REGION_REPLICATION n
// (TableOptions.RegionReplication), Replicas lists where each replica is, and Move takes a
// secondary replica's encoded name, so a test places replicas where it wants them (HBase
// moves a replica even onto a server that holds another replica of its region). The balancer
// (Balance) does not keep a region's replicas apart in a mini cluster: all its region servers
// are on one host, and HBase's StochasticLoadBalancer weighs replicas that share a host, not a
// server, so after a balance two or three replicas of a region may share a server.
//
// Replication: Options.PeerCluster starts a second cluster (a master and a region server) in
// the same JVM, on the first cluster's ZooKeeper under "/hbase-peer", as HBase's own
// replication tests do; the READY line then carries peer_zk=<host:port> and
// peer_znode=<parent>, Cluster.Peer has them and PeerCluster.ClusterKey names the peer for a
// replication peer's configuration.
//
// Two stand-alone Java clients run in JVMs of their own: JavaSmoke exercises every data
// operation once, and StartJavaClient keeps a Java client connected that runs timed blocks of
// Gets and Puts on request, the reference that package benchmarks measures go-hbase against,
// as well as blocks of HBase PerformanceEvaluation's randomRead, randomWrite and scanRange
// on PE's table layout (JavaClient.Work; WorkRow and PEKey give another client the same rows),
// and describes the Results of a Java scan (JavaClient.ScanShapes) for behaviour to compare.
// Cluster.CPUTime and JavaClient.CPUTime read the CPU time of the JVMs (Linux only).
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan, kerberos,
// hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before v1.0.0 a minor
// version (v0.X.0) may change the API of the stable packages; CHANGELOG.md lists every change with
// what to use instead; a patch version (v0.X.Y) never changes it. The lower layers (region, zk,
// sasl, cipher) may change in any minor version. internal/... is not API.
//
//snippets:text status
package hbasetest
