package region

import (
	"errors"
	"fmt"
	"testing"

	"github.com/go-hbase/hbase/hberr"
)

func TestConnErrorWraps(t *testing.T) {
	cause := errors.New("reset")
	err := fmt.Errorf("call: %w", newConnError("h:1", hberr.ErrConnection, cause))
	if !errors.Is(err, hberr.ErrConnection) || !errors.Is(err, cause) || errors.Is(err, ErrClosed) {
		t.Fatal(err)
	}
	var ce *ConnError
	if !errors.As(err, &ce) || ce.Addr != "h:1" {
		t.Fatal(err)
	}
	if err := newConnError("h:1", ErrClosed, nil); !errors.Is(err, ErrClosed) || err.Error() == "" {
		t.Fatal(err)
	}
}
