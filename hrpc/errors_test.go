package hrpc

import (
	"errors"
	"testing"

	"github.com/go-hbase/hbase/region"
)

func TestActionErrorIsClassified(t *testing.T) {
	cases := []struct {
		class string
		want  error
	}{
		{"org.apache.hadoop.hbase.NotServingRegionException", region.ErrRegionUnavailable},
		{"org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException", region.ErrNoSuchFamily},
		{"org.apache.hadoop.hbase.TableNotFoundException", region.ErrTableNotFound},
	}
	for _, c := range cases {
		err := error(&ActionError{Class: c.class, Message: "from a MultiResponse"})
		if !errors.Is(err, c.want) {
			t.Errorf("%s: errors.Is(%v) = false", c.class, c.want)
		}
		var re *region.RemoteError
		if !errors.As(err, &re) || re.Class != c.class {
			t.Errorf("%s: errors.As RemoteError = %v", c.class, re)
		}
	}
}
