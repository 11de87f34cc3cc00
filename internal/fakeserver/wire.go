package fakeserver

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

const maxFrame = 256 << 20

// readSetup reads the SIMPLE preamble and the ConnectionHeader.
func readSetup(br *bufio.Reader) (*pb.ConnectionHeader, error) {
	var pre [6]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil {
		return nil, err
	}
	if !bytes.Equal(pre[:], []byte{'H', 'B', 'a', 's', 0, 0x50}) {
		return nil, fmt.Errorf("bad preamble %q", pre[:])
	}
	b, err := readFrame(br)
	if err != nil {
		return nil, err
	}
	hdr := &pb.ConnectionHeader{}
	if err := proto.Unmarshal(b, hdr); err != nil {
		return nil, fmt.Errorf("connection header: %w", err)
	}
	return hdr, nil
}

func readFrame(r io.Reader) ([]byte, error) {
	var lb [4]byte
	if _, err := io.ReadFull(r, lb[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(lb[:])
	if n > maxFrame {
		return nil, fmt.Errorf("frame of %d bytes", n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

// readRequest reads one request frame.
func readRequest(r io.Reader) (*Request, error) {
	b, err := readFrame(r)
	if err != nil {
		return nil, err
	}
	hb, n := protowire.ConsumeBytes(b)
	if n < 0 {
		return nil, errors.New("request header length")
	}
	b = b[n:]
	req := &Request{Header: &pb.RequestHeader{}}
	if err := proto.Unmarshal(hb, req.Header); err != nil {
		return nil, fmt.Errorf("request header: %w", err)
	}
	req.Method = req.Header.GetMethodName()
	if req.Header.GetRequestParam() {
		p, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return nil, errors.New("request param length")
		}
		req.Param, b = p, b[n:]
	}
	cellsLen := int(req.Header.GetCellBlockMeta().GetLength())
	if cellsLen != len(b) {
		return nil, fmt.Errorf("cellblock meta says %d bytes, frame has %d left", cellsLen, len(b))
	}
	if cellsLen > 0 {
		req.Cells = b
	}
	return req, nil
}

// EncodeResponse builds one response frame:
// be32 total | varint len | ResponseHeader | varint len | msg [| cells], or, with exc,
// be32 total | varint len | ResponseHeader{exception}.
func EncodeResponse(callID uint32, msg proto.Message, cells []byte, exc *pb.ExceptionResponse) ([]byte, error) {
	hdr := &pb.ResponseHeader{CallId: proto.Uint32(callID)}
	var body []byte
	if exc != nil {
		hdr.Exception = exc
	} else {
		if msg != nil {
			var err error
			if body, err = proto.Marshal(msg); err != nil {
				return nil, err
			}
		}
		if len(cells) > 0 {
			hdr.CellBlockMeta = &pb.CellBlockMeta{Length: proto.Uint32(uint32(len(cells)))}
		}
	}
	hb, err := proto.Marshal(hdr)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 4, 4+10+len(hb)+len(body)+len(cells))
	out = protowire.AppendBytes(out, hb)
	if exc == nil {
		out = protowire.AppendBytes(out, body)
		out = append(out, cells...)
	}
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out, nil
}

// Exception builds an ExceptionResponse the way HBase does: the stack trace's first line is
// "class: message", and do_not_retry is set for the DoNotRetryIOException family that this
// function knows (pass an explicit ExceptionResponse for anything else).
func Exception(class, message string) *pb.ExceptionResponse {
	return &pb.ExceptionResponse{
		ExceptionClassName: proto.String(class),
		StackTrace:         proto.String(class + ": " + message + "\n\tat org.apache.hadoop.hbase.fake(Fake.java:1)\n"),
		DoNotRetry:         proto.Bool(doNotRetry[class]),
	}
}

// RegionMoved builds the RegionMovedException HBase sends when a region moved to host:port.
func RegionMoved(host string, port int, startCode int64) *pb.ExceptionResponse {
	e := Exception("org.apache.hadoop.hbase.exceptions.RegionMovedException",
		fmt.Sprintf("Region moved to: hostname=%s port=%d startCode=%d. As of locationSeqNum=42.", host, port, startCode))
	e.Hostname, e.Port = proto.String(host), proto.Int32(int32(port))
	return e
}

var doNotRetry = map[string]bool{
	"org.apache.hadoop.hbase.DoNotRetryIOException":                     true,
	"org.apache.hadoop.hbase.TableNotFoundException":                    true,
	"org.apache.hadoop.hbase.TableNotEnabledException":                  true,
	"org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException":  true,
	"org.apache.hadoop.hbase.UnknownScannerException":                   true,
	"org.apache.hadoop.hbase.exceptions.ScannerResetException":          true,
	"org.apache.hadoop.hbase.exceptions.OutOfOrderScannerNextException": true,
	"org.apache.hadoop.hbase.regionserver.LeaseException":               true,
	"org.apache.hadoop.hbase.exceptions.FailedSanityCheckException":     true,
	"org.apache.hadoop.hbase.ipc.FatalConnectionException":              true,
	"org.apache.hadoop.hbase.ipc.UnsupportedCellCodecException":         true,
	"org.apache.hadoop.hbase.security.AccessDeniedException":            true,
	"org.apache.hadoop.hbase.exceptions.UnknownProtocolException":       true,
	"org.apache.hadoop.hbase.exceptions.RequestTooBigException":         true,
}

// unwrapReader turns be32 length | token frames into the plaintext stream.
type unwrapReader struct {
	src   io.Reader
	layer Layer
	plain []byte
	off   int
}

func (u *unwrapReader) Read(p []byte) (int, error) {
	for u.off == len(u.plain) {
		tok, err := readFrame(u.src)
		if err != nil {
			return 0, err
		}
		if u.plain, err = u.layer.Unwrap(u.plain[:0], tok); err != nil {
			return 0, err
		}
		u.off = 0
	}
	n := copy(p, u.plain[u.off:])
	u.off += n
	return n, nil
}
