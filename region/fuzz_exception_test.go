package region

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// FuzzRemoteError feeds ExceptionResponse payloads: never a panic, and a decoded exception
// always says what it is and classifies without looping.
func FuzzRemoteError(f *testing.F) {
	for _, class := range []string{"org.apache.hadoop.hbase.NotServingRegionException",
		"org.apache.hadoop.hbase.exceptions.RegionMovedException", "org.apache.hadoop.hbase.TableNotFoundException",
		"org.apache.hadoop.hbase.ipc.CallQueueTooBigException", "java.io.IOException", ""} {
		b, _ := proto.Marshal(&pb.ExceptionResponse{ExceptionClassName: proto.String(class),
			StackTrace: proto.String(class + ": boom\n\tat x"), Hostname: proto.String("h"), Port: proto.Int32(16020),
			DoNotRetry: proto.Bool(class == "")})
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		e, err := remoteErrorFrom(payload)
		if err != nil {
			if !errors.Is(err, ErrMalformedFrame) {
				t.Fatalf("undecodable exception gives %v, want ErrMalformedFrame", err)
			}
			return
		}
		if e.Error() == "" {
			t.Fatal("empty error text")
		}
		_ = errors.Is(e, hberr.ErrRetryable) || errors.Is(e, hberr.ErrDoNotRetry) || e.Fatal()
	})
}
