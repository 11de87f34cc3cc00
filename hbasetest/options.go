package hbasetest

import (
	"log/slog"
	"time"
)

// DefaultHBaseVersion is the Maven version of hbase-testing-util used when Options.HBaseVersion
// is empty.
const DefaultHBaseVersion = "2.6.1-hadoop3"

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
	// "privacy"; empty means "privacy".
	Protection string
	// AES sets hbase.rpc.crypto.encryption.aes.enabled (it only matters with privacy).
	AES bool
	// HBaseVersion is the hbase-testing-util version; empty means DefaultHBaseVersion.
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
		o.HBaseVersion = DefaultHBaseVersion
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 5 * time.Minute
	}
	if o.HeapMB <= 0 {
		o.HeapMB = 768
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
