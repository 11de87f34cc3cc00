package cipher

import (
	"crypto/aes"
	stdcipher "crypto/cipher"
	"crypto/hmac"
	"crypto/md5"
	"fmt"
	"testing"
	"time"
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

// BenchmarkEfficiency measures Wrap and Unwrap against the sum of their primitives (AES-CTR
// over msg+MAC and HMAC-MD5 over seq+msg), interleaved in short rounds and taking each one's
// fastest round, so that other load on a shared machine does not skew the ratio. It reports
// wrap-%, unwrap-% and split-wrap-% (WrapOrdered then Seal, as a connection's writer and its
// callers do): 100 means CryptoAES costs exactly what its primitives cost.
func BenchmarkEfficiency(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			client, server := pair(b)
			k := testKeys()
			block, _ := aes.NewCipher(k.OutKey)
			ctr := stdcipher.NewCTR(block, k.OutIV)
			h := hmac.New(md5.New, k.OutKey)
			msg := make([]byte, n)
			tok := make([]byte, 0, n+Overhead)
			plain := make([]byte, 0, n+Overhead)
			buf := make([]byte, n+MACSize)
			var seq [4]byte
			var sum [md5.Size]byte
			iters := max(1, (256<<10)/n) // about 256 KiB per round
			frames := make([][]byte, iters)
			best := map[string]time.Duration{}
			timeIt := func(name string, fn func()) {
				start := time.Now()
				fn()
				if d := time.Since(start); best[name] == 0 || d < best[name] {
					best[name] = d
				}
			}
			for b.Loop() {
				timeIt("wrap", func() {
					for range iters {
						tok, _ = client.Wrap(tok[:0], msg)
					}
				})
				timeIt("split", func() {
					for range iters {
						var seq uint32
						tok, seq = client.WrapOrdered(tok[:0], msg)
						sealFrame(client, tok, seq, msg)
					}
				})
				for i := range frames {
					frames[i], _ = server.Wrap(frames[i][:0], msg)
				}
				timeIt("unwrap", func() {
					for i := range iters {
						plain, _ = client.Unwrap(plain[:0], frames[i])
					}
				})
				timeIt("ctr", func() {
					for range iters {
						ctr.XORKeyStream(buf, buf)
					}
				})
				timeIt("hmac", func() {
					for range iters {
						h.Reset()
						h.Write(seq[:])
						h.Write(msg)
						h.Sum(sum[:0])
					}
				})
			}
			prims := float64(best["ctr"] + best["hmac"])
			b.ReportMetric(100*prims/float64(best["wrap"]), "wrap-%")
			b.ReportMetric(100*prims/float64(best["unwrap"]), "unwrap-%")
			b.ReportMetric(100*prims/float64(best["split"]), "split-wrap-%")
			b.ReportMetric(float64(best["wrap"].Nanoseconds())/float64(iters), "wrap-ns")
			b.ReportMetric(float64(best["unwrap"].Nanoseconds())/float64(iters), "unwrap-ns")
			b.ReportMetric(float64(best["ctr"].Nanoseconds())/float64(iters), "ctr-ns")
			b.ReportMetric(float64(best["hmac"].Nanoseconds())/float64(iters), "hmac-ns")
		})
	}
}
