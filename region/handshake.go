package region

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"os/user"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// simplePreamble is "HBas", RPC version 0 and auth code 80 (SIMPLE).
var simplePreamble = [6]byte{'H', 'B', 'a', 's', 0, 0x50}

// clientVersion is announced in the ConnectionHeader. The server changes behaviour on it: it
// only returns Get results in cellblocks to clients of version 1.3 or later, and only sends
// RetryImmediately/ScannerReset to clients that know them.
const (
	clientVersion      = "2.6.1"
	clientVersionMajor = 2
	clientVersionMinor = 6
)

// connectionHeader returns the header region sends for cfg.
func connectionHeader(cfg config) *pb.ConnectionHeader {
	hdr := &pb.ConnectionHeader{
		ServiceName:         proto.String(cfg.Service),
		CellBlockCodecClass: proto.String(KeyValueCodec),
		VersionInfo: &pb.VersionInfo{
			Version:      proto.String(clientVersion),
			Url:          proto.String("https://github.com/go-hbase/hbase"),
			Revision:     proto.String("go-hbase"),
			User:         proto.String("go-hbase"),
			Date:         proto.String("2026"),
			SrcChecksum:  proto.String("go-hbase"),
			VersionMajor: proto.Uint32(clientVersionMajor),
			VersionMinor: proto.Uint32(clientVersionMinor),
		},
	}
	user := cfg.User
	if user == "" {
		user = defaultUser()
	}
	hdr.UserInfo = &pb.UserInformation{EffectiveUser: proto.String(user)}
	hdr.Attribute = cfg.Attributes
	return hdr
}

// defaultUser is the OS user, as the Java client sends its login user: a server without
// user_info has no user for the connection at all.
func defaultUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "go-hbase"
}

// simpleHandshake writes the SIMPLE preamble and the connection header in one write.
func simpleHandshake(conn net.Conn, hdr *pb.ConnectionHeader) error {
	body, err := proto.Marshal(hdr)
	if err != nil {
		return fmt.Errorf("region: marshal connection header: %w", err)
	}
	b := make([]byte, 0, len(simplePreamble)+4+len(body))
	b = append(b, simplePreamble[:]...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(body)))
	b = append(b, body...)
	_, err = conn.Write(b)
	return err
}

// handshake sets the connection up, bounded by ctx: deadline and cancellation both interrupt
// blocked reads and writes.
func handshake(ctx context.Context, conn net.Conn, host string, cfg config) (Layer, error) {
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl) //nolint:errcheck // a failing deadline shows up as a failing I/O
	}
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) }) //nolint:errcheck
	hdr := connectionHeader(cfg)
	var layer Layer
	var err error
	if cfg.Handshaker != nil {
		layer, err = cfg.Handshaker.Handshake(ctx, conn, host, hdr)
	} else {
		err = simpleHandshake(conn, hdr)
	}
	if !stop() {
		return nil, fmt.Errorf("region: handshake: %w", ctx.Err())
	}
	if err != nil {
		// The socket deadline may fire a moment before the context notices its own.
		if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
			return nil, fmt.Errorf("region: handshake: %w (%w)", context.DeadlineExceeded, err)
		}
		return nil, fmt.Errorf("region: handshake: %w", err)
	}
	if err := conn.SetDeadline(time.Time{}); err != nil {
		return nil, fmt.Errorf("region: handshake: %w", err)
	}
	return layer, nil
}
