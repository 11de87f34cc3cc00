package wire

import (
	"errors"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

func TestActionExceptionIsClassified(t *testing.T) {
	cases := []struct {
		class string
		want  error
	}{
		{"org.apache.hadoop.hbase.NotServingRegionException", hberr.ErrRegionUnavailable},
		{"org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException", hberr.ErrNoSuchFamily},
		{"org.apache.hadoop.hbase.TableNotFoundException", hberr.ErrTableNotFound},
	}
	for _, c := range cases {
		name := c.class
		err := error(ActionException(&pb.NameBytesPair{Name: &name, Value: []byte(c.class + ": from a MultiResponse")}))
		if !errors.Is(err, c.want) {
			t.Errorf("%s: errors.Is(%v) = false", c.class, c.want)
		}
		var re *hberr.RemoteError
		if !errors.As(err, &re) || re.Class != c.class || re.Message != "from a MultiResponse" {
			t.Errorf("%s: errors.As RemoteError = %v", c.class, re)
		}
	}
}
