# go-hbase: build, test and benchmark against real Apache HBase mini clusters.
# Needs Go, JDK 17 and Maven; everything else is fetched on first use.

GO          ?= go
# One test binary at a time (-p 1): each may run an HBase JVM, and the machine has 2 cores.
TESTFLAGS   ?= -race -p 1 -count=1 -timeout 40m
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
BENCHFLAGS  ?= -local -workload randomWrite,randomRead,sequentialWrite,scanRange100 -duration 20s
# Four modules. The library (.) is built and tested outside the workspace (GOWORK=off), with
# its own go.mod's requirements: what a user of the library alone gets. The tools (cmd) and the
# adapters (contrib/*) are modules of their own, so that the library's go.mod lists only what
# the library imports; they require the library at the coming release (v0.1.0), which go.work
# maps to this tree (the only replace: never one in a go.mod, a consumer's build ignores it), so
# they build and test inside the workspace. `go test ./...` at the root does not enter them.
# .ci/modules checks all four as a user gets them, through a module proxy built from the tree.
LIB         := GOWORK=off $(GO)
NESTED      := cmd contrib/prometheus contrib/otel

# Run the secure-cluster integration tests too (they are opt-in for plain `go test ./...`).
export GOHBASE_SECURE_CLUSTER = 1

# The race runtime sleeps a second before a race-built program exits (GORACE's
# atexit_sleep_ms), for reports from goroutines still running then: a second per test binary,
# some 50 in make test. A race found during a test fails that test either way; only a
# goroutine still racing after the last test could go unreported (16 packages check with
# goleak that none is left running).
export GORACE ?= atexit_sleep_ms=0

.PHONY: all unit test test-admin test-kit test-matrix stress bench bench-java smoke check tidy proto launcher reliability soak bench-shell test-shell-corpus

all: check test

# Unit tests only: -short skips every test and example that needs a mini cluster, so no JVM
# starts (under a minute on 2 cores).
unit:
	$(LIB) test -short -count=1 ./...
	@for m in $(NESTED); do echo "=== $$m"; (cd $$m && $(GO) test -short -count=1 ./...) || exit 1; done

# Builds the HBase mini cluster launcher (Maven; cached, offline after the first time).
launcher:
	$(GO) run ./cmd/hbase-local -build-only -v

# Every unit test and every integration test against real clusters; then the allocation tests
# again without -race, which drops sync.Pool items on purpose; then the engine and region
# packages' tests again without -race: race builds keep net.Conn (region/rawconn_other.go), so
# only this run covers the raw socket I/O users run and region's lone reading (region/lone.go);
# the root package's calls are the engine's behind one line each, so of its tests only the
# chaos test runs again
# (ExampleAdmin, package admin, which starts a cluster of its own, runs in the first; the
# other examples run on the in-process fakehbase).
# The chaos test (about 1.5 minutes: its faults take as long as the servers need) runs once, in the
# second pass: the production I/O path under every fault; make reliability runs it with -race.
# Left out of the second pass (they ran in the first): tests whose connections go through
# hbasetest/faultnet use net.Conn either way (a wrapped connection has no raw socket I/O); the
# bad-input tables, ticket renewal, the admin calls and hbase:meta's order, the recovery and
# relocation timings, the request attributes, the redial and bootstrap deadlines and the
# server's throttling (a cluster of its own) exercise logic above
# the connection, whose I/O the data tests cover (and the chaos test's splits and moves cover
# the scans across them); make reliability runs the network-fault and
# recovery tests without -race; the overload test (a one-handler cluster of its own) and the
# parallel scans across splits, moves and a partition (the scanners are the Scanner's, which
# the data tests run in both) run in the first pass only. This keeps make test under 25 minutes
# on 2 cores.
RACE_SKIP   ?= ^TestChaos$$
NORACE_SKIP ?= ^ExampleAdmin$$|TestIntegrationScanWhileRegionsSplitAndMove|TestBadInput|TestMetaOrder|TestIntegrationBootstrapWithoutZooKeeper|TestSecureTicketRenewal|TestAdmin|TestPartitionAgainstHBase|TestResetMidResponseAgainstHBase|TestWorkloadsUnderNetworkFaults|TestRecoveryTimesAgainstHBase|TestThrottlingAgainstHBase|TestScansAcrossSplitsAndMovesUnderNetworkFaults|TestDeadServerRelocationAgainstHBase|TestNoRetriesAgainstHBase|TestRegionMovedHintAgainstHBase|TestOverloadAgainstHBase|TestBufferedWriterUnderFaults|TestParallelScanUnderSplitsAndMovesAgainstHBase|TestParallelScanResumeAfterPartitionAgainstHBase|TestTimelineReadsAgainstHBase|TestTimelineUnderPartitions|TestTimelineHedgesSlowServer|TestMetaReplicaLookupsAgainstHBase|TestTimelineStaleSecondaries|TestCheckAndMutateOnTheWireIsIndeterminate|TestLastErrorNamesServerAfterMetaMove|TestRequestAttributesAgainstHBase|TestAtomicCallAttributesAgainstHBase|TestRedialBackoff|TestBootstrapRegistryUnreachable|TestBootstrapResetWithDeadServerRetries|TestBootstrapDeadlineNamesServers|TestUnreachableZooKeeperFailsFast

# The tools' tests (hbasectl and hbase-bench against real clusters) and the adapters' run last,
# with the same flags as the library's first pass.
test: launcher
	GOHBASE_STRESS_CALLS=20000 $(LIB) test $(TESTFLAGS) -skip '$(RACE_SKIP)' $$($(LIB) list ./... | grep -v -E '$(ADMIN_SUITES)|$(KIT_SUITE)')
	$(LIB) test -count=1 -run 'NotAllocate|RawConn' ./cipher ./region
	$(LIB) test -count=1 -p 1 -timeout 30m -skip '$(NORACE_SKIP)' ./internal/engine ./region
	$(LIB) test -count=1 -timeout 30m -run '^TestChaos$$' .
	@for m in $(NESTED); do echo "=== $$m"; (cd $$m && $(GO) test $(TESTFLAGS) ./...) || exit 1; done

# The client's integration suite (plain, Kerberos, TLS, registry, proxy user, a short stress
# run: the root, engine and kerberos packages) against each HBase version of MATRIX, one after another (hbasetest.VersionEnv);
# CI runs only the default version (make test). docs/versions.md's table comes from it.
# 2.4.18 is a Hadoop 2 build (no -hadoop3 on Maven Central): hbasetest builds it with the
# launcher's hadoop2 profile. 2.6.2-2.6.4 hbase-testing-util do not resolve.
MATRIX ?= 2.4.18 2.5.11-hadoop3 2.6.1-hadoop3
test-matrix: launcher
	@for v in $(MATRIX); do \
		echo "=== HBase $$v"; \
		GOHBASE_HBASE_VERSION=$$v GOHBASE_STRESS_CALLS=20000 $(LIB) test -count=1 -p 1 -timeout 30m \
			-run 'TestIntegration|TestSecureIntegration|TestStressResponseIntegrity' . ./internal/engine ./kerberos || exit 1; \
	done

# The long response-integrity stress test (issue 9): 10 million calls against a real cluster,
# production build, a region move or split every 10 s. STRESS_CALLS sets the count.
STRESS_CALLS ?= 10000000
stress: launcher
	GOHBASE_STRESS_CALLS=$(STRESS_CALLS) GOHBASE_STRESS_FAULT_EVERY=10s $(LIB) test -count=1 -run TestStressResponseIntegrity -timeout 4h -v ./internal/engine

# The reliability suite (issue 14), an outline of the long run: retry controls, recovery from
# moves and server deaths (hbase:meta scans counted, RegionMoved hints), network faults through
# hbasetest/faultnet (partition, reset mid-response, slow reads, latency), recovery times per
# fault kind, the server's throttling waits (a one-server cluster of its own with quotas on),
# five workloads checked against their acknowledged history under network faults (unique
# inserts, Increment counters, MutateRow transfers, two-family rows, CAS appends), full scans
# across splits and moves under latency and resets, and the chaos test; with -race, then
# without (the production I/O path); and the overload test (a one-handler cluster of its own
# refusing calls), 20 s per mode and round, with and without backpressure side by side; and
# Timeline reads while each region's primary is partitioned in turn; and the document layer's
# writers of different paths of the same documents under faults (package doc). The 10-minute
# soak is make soak.

RELIABILITY_TESTS ?= TestNoRetriesAgainstHBase|TestThrottlingAgainstHBase|TestRegionMovedHintAgainstHBase|TestDeadServerRelocationAgainstHBase|TestPartitionAgainstHBase|TestResetMidResponseAgainstHBase|TestRecoveryTimesAgainstHBase|TestWorkloadsUnderNetworkFaults|TestScansAcrossSplitsAndMovesUnderNetworkFaults|TestParallelScanUnderSplitsAndMovesAgainstHBase|TestChaos|TestOverloadAgainstHBase|TestBufferedWriterUnderFaults|TestTimelineUnderPartitions|TestMetaReplicaLookupsAgainstHBase|TestConcurrentWritersUnderFaults
# The long run repeats the fault sequences of the network-fault workloads, the scans and the
# recovery measurement RELIABILITY_ROUNDS times (make test runs each once); the workload test
# prints docs/reliability.md's per-fault table.
RELIABILITY_ROUNDS ?= 3
# The packages that hold them: the engine's data path, the buffered writer, the parallel scans,
# the document layer's Jepsen-style check, and the chaos test in the root package.
RELIABILITY_PKGS := . ./internal/engine ./bufwriter ./parallelscan ./doc
reliability: launcher
	GOHBASE_RELIABILITY_ROUNDS=$(RELIABILITY_ROUNDS) $(LIB) test -race -count=1 -p 1 -timeout 60m -run '$(RELIABILITY_TESTS)' -v $(RELIABILITY_PKGS)
	GOHBASE_RELIABILITY_ROUNDS=$(RELIABILITY_ROUNDS) $(LIB) test -count=1 -p 1 -timeout 60m -run '$(RELIABILITY_TESTS)' -v $(RELIABILITY_PKGS)

# The soak test (issue 14): SOAK of mixed load (Puts, Gets, Increments, Scans; 16 goroutines,
# deadlines of 200 ms to 1 s) on three region servers, a fault every SOAK_FAULT_EVERY (region
# move, partition, split, reset mid-response, region server kill + start, latency), RSS,
# goroutines and connections sampled and bounded, every acknowledged Put read back; production
# build. TestSoak skips itself unless GOHBASE_SOAK is set, so make test only compiles it.
SOAK            ?= 10m
SOAK_FAULT_EVERY ?= 30s
soak: launcher
	GOHBASE_SOAK=$(SOAK) GOHBASE_SOAK_FAULT_EVERY=$(SOAK_FAULT_EVERY) $(LIB) test -count=1 -run TestSoak -timeout 30m -v .

# The Java smoke test (standard HBase client, plain and Kerberos), then the benchmark.
bench: smoke
	$(GO) run ./cmd/hbase-bench $(BENCHFLAGS)

# go-hbase beside HBase's own Java client (issue 15): one cluster (1 region server, PE's table
# pre-split and loaded with 100k rows of 100 B), the two clients alternating in blocks of about a
# second for randomRead and randomWrite at 8 and 32 callers, scanRange100 at 8 and randomRead at
# 1; prints the figures, the ratios to the Java client and issue 15's targets (about 5 minutes).
# Then TestJavaTimelineTargets (issue 24): TIMELINE Gets of both clients on a cluster of 3 region
# servers with a table of REGION_REPLICATION 3, healthy and with one slow server (about 7 more
# minutes). Then TestParallelScanThroughput (issue 24): a whole table scanned by one Scan, by
# ScanParallel (unordered and ordered) and by the Java client with a pool of as many threads,
# on a cluster of 3 region servers (about 2 more minutes). BENCH_SECONDS is each client's time
# per workload or scenario. The tests skip themselves unless GOHBASE_BENCH=1, so make test only
# compiles them.
BENCH_SECONDS ?= 24
bench-java: launcher
	GOHBASE_BENCH=1 GOHBASE_BENCH_SECONDS=$(BENCH_SECONDS) $(LIB) test -count=1 -run 'TestJavaClientTargets$$|TestJavaTimelineTargets$$|TestParallelScanThroughput$$' -timeout 40m -v ./benchmarks

# hbasectl against the smallest Java client program (the launcher's ShellBench, a JVM of its
# own), each started anew per command on one cluster: a get and a scan of 10 rows to the first
# result, a runbook of 1,000 lines to its end; medians of 5 rounds and the ratios (about a
# minute). cmd/hbasectl/README.md has the table.
bench-shell: launcher
	cd cmd && GOHBASE_SHELL_BENCH=1 $(GO) test -count=1 -run 'TestShellBenchmark$$' -v ./hbasectl

# The operators' and security admins' suites, each on a cluster of its own configured for its
# area (quotas and region server groups; a source and a peer cluster for replication; a secure
# cluster with the AccessController and VisibilityController; the aggregation and visibility
# endpoints): about two and a half minutes with their clusters' starts, so make test leaves
# them out and .ci/run calls this after it. Package admin's own suite (tables, regions,
# switches, procedures...) stays in make test.
ADMIN_SUITES := /admin/internal/quotatest$$|/admin/internal/replicationtest$$|/internal/securitytest$$|/internal/endpointtest$$
test-admin: launcher
	$(LIB) test $(TESTFLAGS) ./admin/internal/quotatest ./admin/internal/replicationtest ./internal/securitytest ./internal/endpointtest

# The test kit's own tests (package hbasetest: the launcher's clusters, plain, secure, with
# replicas and several at once, its fault commands, its JVM's lifecycle; about two minutes).
# make test uses the kit in every package but leaves these out, and .ci/run calls this after
# it; hbasetest/faultnet's tests stay in make test.
KIT_SUITE := /hbasetest$$
test-kit: launcher
	$(LIB) test $(TESTFLAGS) ./hbasetest

# hbasectl's corpus of the shell's commands on a real cluster, each runbook run as text and as
# -json and compared with the Java Admin and Table doing the same (TestShellCorpus: about three
# and a half minutes with -race and the cluster's start, so make test skips it), then the security and
# visibility runbooks on a secure cluster (TestShellCorpusSecure, about 30 s); .ci/run calls it
# after make test.
test-shell-corpus: launcher
	cd cmd && GOHBASE_SHELL_CORPUS=1 $(GO) test $(TESTFLAGS) -run 'TestShellCorpus$$' ./hbasectl
	cd cmd && GOHBASE_SHELL_CORPUS=1 $(GO) test $(TESTFLAGS) -run 'TestShellCorpusSecure$$' ./hbasectl

smoke: launcher
	$(GO) run ./cmd/hbase-local -smoke
	$(GO) run ./cmd/hbase-local -smoke -secure -aes

# Formatting; no tracked file over 1 MiB or executable binary; every Go snippet of README.md,
# docs/*.md and the package docs compiles (-v lists the counts and the blocks that are not
# Go); vet and staticcheck of every module; every go.mod and go.sum tidy, none with a replace; then a module outside the tree
# built against the release as a user would build it (.ci/modules consumer: about 10 s with a
# warm build cache, one to two minutes the first time).
# go.sum: the nested modules' hold no line for github.com/go-hbase/* (the library's checksum at
# v0.1.0 is that of whatever the tree holds until the tag, so it would change with every commit;
# a user's build never reads a dependency's go.sum, and the workspace needs none). Their tidy
# check runs outside the workspace against the module proxy built from the tree, and compares
# without those lines; make tidy writes them the same way. .ci/modules has the details.
check:
	@unformatted="$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(LIB) run ./internal/tools/trackedfiles
	$(LIB) test -count=1 -run 'TestSnippets$$' -v ./internal/tools/snippets
	$(LIB) vet ./...
	$(LIB) run $(STATICCHECK) ./...
	@for m in $(NESTED); do echo "=== $$m"; (cd $$m && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./...) || exit 1; done
	GO=$(GO) .ci/modules tidy-check
	GO=$(GO) .ci/modules consumer
	# docs/architecture.md's layer table and the stable packages' API against the code.
	$(LIB) test -count=1 ./internal/archtest

# Tidies every go.mod and go.sum (the nested modules through the module proxy built from the
# tree; see check).
tidy:
	GO=$(GO) .ci/modules tidy

proto:
	$(GO) generate ./internal/pb
