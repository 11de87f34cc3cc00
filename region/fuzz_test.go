package region

import (
	"bufio"
	"bytes"
	"errors"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// seedFrames are well-formed response streams (the committed corpus under testdata/fuzz holds
// these and a few malformed ones).
func seedFrames(t testing.TB) [][]byte {
	enc := func(id uint32, msg proto.Message, cells []byte, exc *pb.ExceptionResponse) []byte {
		f, err := fakeserver.EncodeResponse(id, msg, cells, exc)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	get := &pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{{Row: []byte("r"), Value: []byte("v")}}}}
	return [][]byte{
		enc(2, get, nil, nil),
		enc(4, &pb.GetResponse{}, []byte("cellblock"), nil),
		enc(6, nil, nil, fakeserver.Exception("org.apache.hadoop.hbase.NotServingRegionException", "r")),
		append(enc(8, get, nil, nil), enc(3, get, []byte("c"), nil)...),
	}
}

// FuzzReadResponse feeds arbitrary bytes to the response frame reader: it must never panic,
// never hand out slices outside the frame, and stop with an error on anything malformed.
func FuzzReadResponse(f *testing.F) {
	for _, s := range seedFrames(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// A 16 byte buffer (bufio's minimum) sends long headers through the scratch path.
		fr := frameReader{br: bufio.NewReaderSize(bytes.NewReader(data), 16), maxFrame: 1 << 16}
		claim := func(id uint32, _ bool) ([]byte, bool) {
			if id%2 == 1 {
				return nil, false // an unknown (cancelled) call
			}
			return make([]byte, 0, 8), true
		}
		var resp response
		for range 64 {
			err := fr.next(claim, &resp)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error message")
				}
				return
			}
			if resp.known && resp.remote == nil {
				if len(resp.msg) > len(resp.body) || len(resp.cells) > len(resp.body) {
					t.Fatalf("msg %d / cells %d bytes outside a %d byte body", len(resp.msg), len(resp.cells), len(resp.body))
				}
				var m pb.GetResponse
				_ = proto.Unmarshal(resp.msg, &m)
			}
			if resp.remote != nil {
				_ = resp.remote.Error()
				_ = resp.remote.MovedTo()
			}
		}
	})
}

func TestReadResponseSeeds(t *testing.T) {
	wantIDs := [][]uint32{{2}, {4}, {6}, {8, 3}}
	for i, s := range seedFrames(t) {
		fr := frameReader{br: bufio.NewReaderSize(bytes.NewReader(s), 16), maxFrame: 1 << 16}
		var resp response
		for _, id := range wantIDs[i] {
			if err := fr.next(func(uint32, bool) ([]byte, bool) { return nil, true }, &resp); err != nil {
				t.Fatalf("seed %d: %v", i, err)
			}
			if resp.callID != id {
				t.Fatalf("seed %d: call id %d, want %d", i, resp.callID, id)
			}
		}
		if err := fr.next(func(uint32, bool) ([]byte, bool) { return nil, true }, &resp); !errors.Is(err, errFrameStart) {
			t.Fatalf("seed %d: after the last frame: %v", i, err)
		}
	}
}
