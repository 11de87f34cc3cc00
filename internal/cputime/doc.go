// Package cputime reads CPU time used by processes, for benchmarks and tests that report CPU
// per operation: Self for this process (the Go client), Process for another one (a JVM); and
// RSS, a process's resident memory, for the benchmarks that bound a client's memory.
package cputime
