// Package engine is the client behind package hbase's API: it routes each request to its
// region, caches regions and connections, retries, relocates regions after moves and server
// failures, runs scanners and batches, and holds the features that hook into a call's attempt
// (hedged Timeline reads, overload pacing, request headers, observation).
//
// Package hbase's Client holds an *engine.Client; the packages built on the client (admin,
// bufwriter, parallelscan, kerberos) reach it through Of, and set its settings (Config)
// through hbase.Option, whose parameter is a *Config. Its exported names are for those
// packages of the module only: docs/architecture.md says which file holds what.
//
// The send loop (send.go) keeps no feature's state: a call is a callRun, an attempt is one
// function (attempt.go) through which every RPC of a single call goes, and the features hook
// in there and around it at fixed points: pacing before (loadstats.go), headers and the hedge
// race's stop in it (headers.go, hedge.go), overload accounting and load figures after
// (overload.go, loadstats.go), observation around (observe.go).
package engine
