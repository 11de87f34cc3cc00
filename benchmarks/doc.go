// Package benchmarks holds the end-to-end encryption benchmarks: Get and Put latency
// (p50/p75/p95) and the CPU per operation of the client and of the cluster's JVM against a real
// secure mini cluster, with no encryption (Kerberos, QoP auth), privacy with sealed GSS Wrap,
// and privacy with AES. The three modes run against one cluster that offers both QoPs, taking
// turns in blocks of 200 operations. TestJavaClientLatency puts go-hbase beside the standard
// HBase Java client, in a JVM of its own, the same way; TestJavaClientTargets (make bench-java)
// does so for HBase PerformanceEvaluation's workloads and prints which of the targets of
// docs/benchmarks.md it meets.
// TestOneCallerFloor puts beside them at one caller a bare Go client (floorConn), to show
// what any Go client's CPU per Get can be.
//
// The per-frame costs of the security layers (CryptoAES beside AES-CTR and HMAC-MD5 alone,
// and beside GSS Wrap) are BenchmarkSecurityLayers in package sasl.
//
//	GOHBASE_BENCH=1 GOHBASE_BENCH_OPS=20000 GOHBASE_BENCH_REPEAT=3 go test -run TestEncryptionLatency -v -timeout 30m ./benchmarks
//	GOHBASE_BENCH=1 GOHBASE_BENCH_OPS=20000 go test -run TestJavaClientLatency -v -timeout 30m ./benchmarks
//	GOHBASE_BENCH=1 go test -run 'TestJavaClientTargets$' -v -timeout 30m ./benchmarks
//	GOHBASE_BENCH=1 go test -run 'TestOneCallerFloor$' -v -timeout 20m ./benchmarks
//	go test -run '^$' -bench SecurityLayers -benchmem ./sasl
//
//snippets:text GOHBASE_BENCH=1
package benchmarks
