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
// net.Conn), as pgx's pgconn and pgproto3 are below pgx, but not one of the stable packages
// (hbase, admin, bufwriter, parallelscan, kerberos, hrpc, hberr, hbasetrace, hbasetest,
// hbasetest/faultnet and fakehbase). Before v1.0.0 a minor version (v0.X.0) may change the API of
// the stable packages; CHANGELOG.md lists every change with what to use instead; a patch version
// (v0.X.Y) never changes it. The lower layers (region, zk, sasl, cipher) may change in any minor
// version. internal/... is not API. A program that uses the client through package hbase never
// needs to import it.
package sasl
