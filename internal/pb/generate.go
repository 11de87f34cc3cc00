// Package pb holds the protocol buffer messages of the HBase 2.6.1 RPC protocol
// that the client uses, generated from our own .proto files in proto/ (proto2,
// package hbase.pb, HBase's field numbers and names).
//
// Regenerate with `go generate ./internal/pb` (needs protoc, see gen.sh).
package pb

//go:generate sh gen.sh
