package zk

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// HBase writes its znodes as 0xFF, be32 id length, id (RecoverableZooKeeper's process id and
// salt), then the payload; location payloads are "PBUF" followed by a protobuf message.
// See ZKMetadata.appendMetaData and ProtobufUtil.prependPBMagic in hbase-client.
const (
	metaMagic = 0xFF
	pbMagic   = "PBUF"
)

// stateOpen is RegionState.State OPEN; an absent state means OPEN too.
const stateOpen = pb.RegionState_OPEN

// metaLocation is what <parent>/meta-region-server says.
type metaLocation struct {
	addr  string
	state pb.RegionState_State
}

func parseMetaRegionServer(data []byte) (metaLocation, error) {
	msg, err := znodePayload(data)
	if err != nil {
		return metaLocation{}, err
	}
	var m pb.MetaRegionServer
	if err := proto.Unmarshal(msg, &m); err != nil {
		return metaLocation{}, fmt.Errorf("%w: MetaRegionServer: %v", ErrBadZNode, err)
	}
	addr, err := serverAddr(m.GetServer())
	if err != nil {
		return metaLocation{}, err
	}
	state := stateOpen
	if m.State != nil {
		state = m.GetState()
	}
	return metaLocation{addr: addr, state: state}, nil
}

func parseMaster(data []byte) (string, error) {
	msg, err := znodePayload(data)
	if err != nil {
		return "", err
	}
	var m pb.Master
	if err := proto.Unmarshal(msg, &m); err != nil {
		return "", fmt.Errorf("%w: Master: %v", ErrBadZNode, err)
	}
	return serverAddr(m.GetMaster())
}

// znodePayload strips the metadata header and the PBUF magic and returns the protobuf bytes.
// The header is optional (ZKMetadata.removeMetaData passes data without it through); the PBUF
// magic is not: HBase 2 always writes it, and the pre-protobuf "host,port,startcode" form is
// from HBase 0.94.
func znodePayload(data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrBadZNode)
	}
	if data[0] == metaMagic {
		if len(data) < 5 {
			return nil, fmt.Errorf("%w: %d bytes, too short for the metadata header", ErrBadZNode, len(data))
		}
		idLen := binary.BigEndian.Uint32(data[1:5])
		if uint64(idLen) > uint64(len(data)-5) {
			return nil, fmt.Errorf("%w: metadata id length %d exceeds the %d bytes left", ErrBadZNode, idLen, len(data)-5)
		}
		data = data[5+idLen:]
	}
	msg, ok := bytes.CutPrefix(data, []byte(pbMagic))
	if !ok {
		return nil, fmt.Errorf("%w: no %q magic before the protobuf", ErrBadZNode, pbMagic)
	}
	return msg, nil
}

func serverAddr(sn *pb.ServerName) (string, error) {
	if sn == nil || sn.GetHostName() == "" {
		return "", fmt.Errorf("%w: no server host name", ErrBadZNode)
	}
	if sn.Port == nil || sn.GetPort() == 0 || sn.GetPort() > 65535 {
		return "", fmt.Errorf("%w: server %q has port %d", ErrBadZNode, sn.GetHostName(), sn.GetPort())
	}
	return net.JoinHostPort(sn.GetHostName(), strconv.FormatUint(uint64(sn.GetPort()), 10)), nil
}
