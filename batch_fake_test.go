package hbase_test

import (
	"context"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/fakehbase"
)

// TestBatchCheckAndMutateOnFake runs the checks of TestBatchCheckAndMutateAgainstHBase on
// fakehbase.
func TestBatchCheckAndMutateOnFake(t *testing.T) {
	srv := fakehbase.NewServer(t)
	if err := srv.CreateTable("cam", []string{"f"}, []byte(","), []byte("\x10")); err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hbase.CheckAtomicBatch(t, ctx, c, "cam", [4]string{"\x00a", ",\x00,", ",,b", "\xff\x00"})
}
