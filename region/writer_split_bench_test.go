package region

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/go-hbase/hbase/cipher"
	"github.com/go-hbase/hbase/internal/pb"
)

// wholeAES hides CryptoAES's split methods, so the writer wraps everything pending under its
// single-writer turn, as it does for GSS: the reference for BenchmarkAESCalls.
type wholeAES struct{ l *cipher.CryptoAES }

func (w wholeAES) Wrap(dst, plain []byte) ([]byte, error)   { return w.l.Wrap(dst, plain) }
func (w wholeAES) Unwrap(dst, token []byte) ([]byte, error) { return w.l.Unwrap(dst, token) }

// serveLeanAES is serveLean behind the server side of CryptoAES (the connection header comes in
// clear first).
func serveLeanAES(nc net.Conn, respMsg []byte) {
	var pre [6]byte
	var lb [4]byte
	if _, err := io.ReadFull(nc, pre[:]); err != nil {
		return
	}
	if _, err := io.ReadFull(nc, lb[:]); err != nil {
		return
	}
	if _, err := io.ReadFull(nc, make([]byte, binary.BigEndian.Uint32(lb[:]))); err != nil {
		return
	}
	l, err := cipher.New(cipher.Transformation, aesKeys().Swapped())
	if err != nil {
		return
	}
	br := bufio.NewReaderSize(&layerReader{src: bufio.NewReaderSize(nc, 64<<10), layer: l, maxToken: DefaultMaxFrameSize}, 64<<10)
	bw := bufio.NewWriterSize(&tokenWriter{w: nc, l: l}, 64<<10)
	serveLeanFrames(br, bw, respMsg, false)
}

// tokenWriter wraps each Write into one be32 length | token frame.
type tokenWriter struct {
	w   io.Writer
	l   Layer
	buf []byte
}

func (t *tokenWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf[:0], 0, 0, 0, 0)
	t.buf, _ = t.l.Wrap(t.buf, p)
	binary.BigEndian.PutUint32(t.buf, uint32(len(t.buf)-4))
	if _, err := t.w.Write(t.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// BenchmarkAESCalls: calls carrying a cellblock of each size through CryptoAES from parallel
// goroutines, with each caller sealing its own tokens ("split") and, in the same run, with the
// writer wrapping all pending calls itself ("whole", the reference). The server (in process)
// unwraps and answers; its cost is the same in both modes, so the ratio understates what
// moving the MAC off the single writer buys a client whose server is elsewhere.
func BenchmarkAESCalls(b *testing.B) {
	addr := startLeanServerWith(b, serveLeanAES)
	req := getRequest("row-0001")
	for _, size := range []int{128, 4 << 10, 64 << 10} {
		for _, mode := range []string{"whole", "split"} {
			b.Run(fmt.Sprintf("%d/%s", size, mode), func(b *testing.B) {
				l, err := cipher.New(cipher.Transformation, aesKeys())
				if err != nil {
					b.Fatal(err)
				}
				var layer Layer = l
				if mode == "whole" {
					layer = wholeAES{l}
				}
				c := dialT(b, addr, WithHandshaker(layerHandshaker{layer}))
				cells := make([]byte, size)
				b.SetBytes(int64(size))
				b.ReportAllocs()
				b.SetParallelism(8)
				b.RunParallel(func(pb_ *testing.PB) {
					var resp pb.GetResponse
					for pb_.Next() {
						if _, err := c.Call(context.Background(), "Get", req, cells, &resp); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
	}
}
