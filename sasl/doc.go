// Package sasl sets up secure HBase connections: the HBase SASL exchange (auth codes, status
// framing, server errors, SWITCH_TO_SIMPLE_AUTH), the SIMPLE and GSSAPI (Kerberos)
// mechanisms in pure Go on top of github.com/jcmturner/gokrb5/v8, the RFC 4752 security layer
// (auth, auth-int, auth-conf) with RFC 4121 Wrap tokens, and the switch to HBase's CryptoAES
// (package cipher) after a privacy handshake.
//
// Handshaker implements region.Handshaker. A client that asked for integrity or privacy never
// ends up with less: SWITCH_TO_SIMPLE_AUTH, a weaker security-layer offer and a missing AES
// reply (when AES is required) are errors unless an explicit fallback option allows them.
//
// # Stability
//
// Package sasl is a lower layer of go-hbase: usable on its own (HBase SASL and Kerberos on a
// net.Conn), as pgx's pgconn and pgproto3 are below pgx, but not part of the stable API of
// v0.1.0 (hbase, hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet, fakehbase). It may
// change in any minor version; a program that uses the client through package hbase never needs
// to import it.
package sasl
