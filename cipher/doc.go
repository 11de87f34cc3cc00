// Package cipher implements HBase's CryptoAES transport encryption: the layer a connection
// switches to after a SASL privacy (auth-conf) handshake when the server hands the client AES
// keys in the ConnectionHeaderResponse (HBASE-16414).
//
// Each direction is one continuous AES/CTR stream for the connection's life. A frame is
//
//	wrap(msg) = CTR(msg || mac10) || be32(seq)
//	mac10     = HMAC-MD5(key, be32(seq) || msg)[0:10]
//
// where key is that direction's AES key and seq counts frames from 0 in each direction. This is
// byte for byte what hbase-common's io/crypto/aes/CryptoAES does, so the MAC bytes consume
// keystream too and the sequence number travels in clear.
//
// Any failure to unwrap (short frame, wrong MAC, unexpected sequence number) is fatal: the
// inbound keystream is then out of step with the peer, so the layer refuses every later frame
// and the connection must be closed.
//
// # Stability
//
// Package cipher is a lower layer of go-hbase: usable on its own (HBase's CryptoAES layer), as
// pgx's pgconn and pgproto3 are below pgx, but not one of the stable packages (hbase, admin,
// bufwriter, parallelscan, kerberos, hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and
// fakehbase). Before v1.0.0 a minor version (v0.X.0) may change the API of the stable packages;
// CHANGELOG.md lists every change with what to use instead; a patch version (v0.X.Y) never changes
// it. The lower layers (region, zk, sasl, cipher) may change in any minor version. internal/... is
// not API. A program that uses the client through package hbase never needs to import it.
//
//snippets:text wrap(msg)
package cipher
