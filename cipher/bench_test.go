package cipher

import (
	"crypto/aes"
	stdcipher "crypto/cipher"
	"crypto/hmac"
	"crypto/md5"
	"fmt"
	"testing"
)

var benchSizes = []int{128, 1024, 64 << 10}

func BenchmarkWrap(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			client, _ := pair(b)
			msg := make([]byte, n)
			tok := make([]byte, 0, n+Overhead)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				tok, _ = client.Wrap(tok[:0], msg)
			}
		})
	}
}

func BenchmarkUnwrap(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			client, server := pair(b)
			msg := make([]byte, n)
			tok := make([]byte, 0, n+Overhead)
			plain := make([]byte, 0, n+Overhead)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				// The peer's wrap is needed to keep sequence numbers in step; time only Unwrap.
				b.StopTimer()
				tok, _ = server.Wrap(tok[:0], msg)
				b.StartTimer()
				var err error
				if plain, err = client.Unwrap(plain[:0], tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAESCTR is the cipher primitive alone over the same bytes Wrap encrypts.
func BenchmarkAESCTR(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			k := testKeys()
			block, _ := aes.NewCipher(k.OutKey)
			s := stdcipher.NewCTR(block, k.OutIV)
			buf := make([]byte, n+MACSize)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				s.XORKeyStream(buf, buf)
			}
		})
	}
}

// BenchmarkHMACMD5 is the MAC primitive alone over seq || msg.
func BenchmarkHMACMD5(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			h := hmac.New(md5.New, testKeys().OutKey)
			var seq [4]byte
			var sum [md5.Size]byte
			msg := make([]byte, n)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				h.Reset()
				h.Write(seq[:])
				h.Write(msg)
				h.Sum(sum[:0])
			}
		})
	}
}
