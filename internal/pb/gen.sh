#!/bin/sh
# Regenerates the Go code in this directory from proto/*.proto.
# Needs protoc (apt-get install protobuf-compiler; the committed files were made
# with libprotoc 3.21.12) and installs protoc-gen-go at the pinned version when
# it is missing or different, so `go generate ./internal/pb` reproduces them exactly.
set -eu
cd "$(dirname "$0")"

want=v1.36.12
gobin=$(go env GOBIN)
[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
plugin="$gobin/protoc-gen-go"
if [ ! -x "$plugin" ] || [ "$("$plugin" --version 2>/dev/null)" != "protoc-gen-go $want" ]; then
	GOBIN="$gobin" go install "google.golang.org/protobuf/cmd/protoc-gen-go@$want"
fi
command -v protoc >/dev/null 2>&1 || {
	echo "gen.sh: protoc not found; install it (apt-get install protobuf-compiler)" >&2
	exit 1
}

rm -f ./*.pb.go
protoc --plugin=protoc-gen-go="$plugin" -I proto \
	--go_out=. --go_opt=paths=source_relative proto/*.proto
