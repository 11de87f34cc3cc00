package main

import (
	"bytes"
	"context"
	"sync/atomic"

	"github.com/go-hbase/hbase/bufwriter"
	"github.com/go-hbase/hbase/hrpc"
)

// hbaseWriter is a putWriter on a go-hbase bufwriter.Writer (-buffered).
type hbaseWriter struct {
	s      *hbaseStore
	w      *bufwriter.Writer
	failed atomic.Int64
}

// NewPutWriter returns a buffered writer that flushes writeBuffer bytes at a time, as a Java
// BufferedMutator with that writeBufferSize, and holds at most twice that (one flush sent while
// the next fills). Like the BufferedMutator of PE's --autoFlush=false it has no periodic flush.
func (s *hbaseStore) NewPutWriter(writeBuffer int64) (putWriter, error) {
	hw := &hbaseWriter{s: s}
	w, err := bufwriter.New(s.client, s.table, bufwriter.WithWriteBuffer(2*writeBuffer),
		bufwriter.WithFlushBytes(writeBuffer), bufwriter.WithFlushInterval(0),
		bufwriter.WithOnOutcome(func(o bufwriter.Outcome) {
			if o.Err != nil {
				hw.failed.Add(1)
			}
		}))
	if err != nil {
		return nil, err
	}
	hw.w = w
	return hw, nil
}

// Put accepts a Put of row. The row is copied: the Put is sent later, and the runner reuses its
// key buffer (the value is written once and never changed).
func (hw *hbaseWriter) Put(ctx context.Context, row, value []byte) error {
	p, err := hrpc.NewPut(hw.s.table, bytes.Clone(row), hrpc.Value(hw.s.family, hw.s.qualifier, value))
	if err != nil {
		return err
	}
	return hw.w.Write(ctx, p)
}

func (hw *hbaseWriter) Close(ctx context.Context) (int64, error) {
	err := hw.w.Close(ctx)
	return hw.failed.Load(), err
}
