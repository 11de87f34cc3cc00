# go-hbase: build, test and benchmark against real Apache HBase mini clusters.
# Needs Go, JDK 17 and Maven; everything else is fetched on first use.

GO          ?= go
# One test binary at a time (-p 1): each may run an HBase JVM, and the machine has 2 cores.
TESTFLAGS   ?= -race -p 1 -count=1 -timeout 40m
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
BENCHFLAGS  ?= -local -workload randwrite,randread,seqwrite,scan -duration 20s

# Run the secure-cluster integration tests too (they are opt-in for plain `go test ./...`).
export GOHBASE_SECURE_CLUSTER = 1

.PHONY: all test bench smoke check proto launcher

all: check test

# Builds the HBase mini cluster launcher (Maven; cached, offline after the first time).
launcher:
	$(GO) run ./cmd/hbase-local -build-only -v

# Every unit test and every integration test against real clusters; then the allocation tests
# again without -race, which drops sync.Pool items on purpose.
test: launcher
	$(GO) test $(TESTFLAGS) ./...
	$(GO) test -count=1 -run 'NotAllocate|RawConn' ./cipher ./region

# The Java smoke test (standard HBase client, plain and Kerberos), then the benchmark.
bench: smoke
	$(GO) run ./cmd/hbase-bench $(BENCHFLAGS)

smoke: launcher
	$(GO) run ./cmd/hbase-local -smoke
	$(GO) run ./cmd/hbase-local -smoke -secure -aes

check:
	@unformatted="$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

proto:
	$(GO) generate ./pb
