package sasl

import (
	"crypto/aes"
	stdcipher "crypto/cipher"
	"crypto/hmac"
	"crypto/md5"
	"fmt"
	"testing"

	"github.com/go-hbase/hbase/cipher"
)

// BenchmarkSecurityLayers puts everything a privacy connection can spend per frame side by
// side in one run: CryptoAES wrap/unwrap, its two primitives alone (AES-CTR over msg+MAC,
// HMAC-MD5 over seq+msg), and RFC 4121 sealed and integrity-only GSS Wrap (aes128-cts, the
// mini cluster's enctype).
//
//	go test -run '^$' -bench SecurityLayers -benchmem ./sasl
func BenchmarkSecurityLayers(b *testing.B) {
	for _, n := range []int{128, 1 << 10, 64 << 10} {
		msg := make([]byte, n)
		run := func(name string, fn func(b *testing.B)) {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(n))
				b.ReportAllocs()
				fn(b)
			})
		}
		keys := randomKeys()
		run("cryptoaes-wrap", func(b *testing.B) {
			c, _ := cipher.New(cipher.Transformation, keys)
			out := make([]byte, 0, n+cipher.Overhead)
			for b.Loop() {
				out, _ = c.Wrap(out[:0], msg)
			}
		})
		run("cryptoaes-unwrap", func(b *testing.B) {
			c, _ := cipher.New(cipher.Transformation, keys)
			peer, _ := cipher.New(cipher.Transformation, keys.Swapped())
			// Pre-wrap a run of frames so only Unwrap is timed.
			const batch = 64
			frames := make([][]byte, batch)
			out := make([]byte, 0, n+cipher.Overhead)
			i := batch
			for b.Loop() {
				if i == batch {
					b.StopTimer()
					for k := range frames {
						frames[k], _ = peer.Wrap(frames[k][:0], msg)
					}
					i = 0
					b.StartTimer()
				}
				var err error
				if out, err = c.Unwrap(out[:0], frames[i]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		run("aes-ctr", func(b *testing.B) {
			block, _ := aes.NewCipher(keys.OutKey)
			s := stdcipher.NewCTR(block, keys.OutIV)
			buf := make([]byte, n+cipher.MACSize)
			for b.Loop() {
				s.XORKeyStream(buf, buf)
			}
		})
		run("hmac-md5", func(b *testing.B) {
			h := hmac.New(md5.New, keys.OutKey)
			var seq [4]byte
			var sum [md5.Size]byte
			for b.Loop() {
				h.Reset()
				h.Write(seq[:])
				h.Write(msg)
				h.Sum(sum[:0])
			}
		})
		for _, seal := range []bool{true, false} {
			kind := "gss-int"
			if seal {
				kind = "gss-seal"
			}
			run(kind+"-wrap", func(b *testing.B) {
				c, _ := layerPair(b, seal)
				out := make([]byte, 0, n+128)
				for b.Loop() {
					out, _ = c.Wrap(out[:0], msg)
				}
			})
			run(kind+"-unwrap", func(b *testing.B) {
				c, s := layerPair(b, seal)
				out := make([]byte, 0, n+128)
				for b.Loop() {
					b.StopTimer()
					tok, _ := s.Wrap(nil, msg)
					b.StartTimer()
					var err error
					if out, err = c.Unwrap(out[:0], tok); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
