package conformance

import (
	"context"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hrpc"
)

// server is the server-side access a case has to its table: fakehbase's seeding and reading
// methods, and on HBase what they stand for, a client's Put, Get and Scan. Cases that seed on
// one side and read on the other check that a seeded cell is the cell a client's Put writes
// (timestamps, versions, delete markers, regions) and that the server reads what a client's
// Get and Scan return.
type server interface {
	// put writes value at row, family:qualifier with timestamp ts (0: the server's time).
	put(ctx context.Context, table, row, family, qualifier string, ts uint64, value string) error
	get(ctx context.Context, table, row, family, qualifier string) (value string, ok bool, err error)
	rows(ctx context.Context, table string) ([]*hrpc.Result, error)
}

// fakeServer is fakehbase's server side.
type fakeServer struct{ srv *fakehbase.Server }

func (f fakeServer) put(_ context.Context, table, row, family, qualifier string, ts uint64, value string) error {
	if ts == 0 {
		return f.srv.Put(table, row, family, qualifier, value)
	}
	return f.srv.PutAt(table, row, family, qualifier, ts, value)
}

func (f fakeServer) get(_ context.Context, table, row, family, qualifier string) (string, bool, error) {
	return f.srv.Get(table, row, family, qualifier)
}

func (f fakeServer) rows(_ context.Context, table string) ([]*hrpc.Result, error) {
	return f.srv.Rows(table)
}

// clientServer stands for the server side on HBase: a client of its own.
type clientServer struct{ c *hbase.Client }

func (r clientServer) put(ctx context.Context, table, row, family, qualifier string, ts uint64, value string) error {
	var v hrpc.PutOption = hrpc.Value(b(family), b(qualifier), b(value))
	if ts != 0 {
		v = hrpc.ValueAt(b(family), b(qualifier), ts, b(value))
	}
	p, err := hrpc.NewPut(table, b(row), v)
	if err == nil {
		_, err = r.c.Put(ctx, p)
	}
	return err
}

func (r clientServer) get(ctx context.Context, table, row, family, qualifier string) (string, bool, error) {
	g, err := hrpc.NewGet(table, b(row), hrpc.Columns(b(family), b(qualifier)))
	if err != nil {
		return "", false, err
	}
	res, err := r.c.Get(ctx, g)
	if err != nil || len(res.Cells) == 0 {
		return "", false, err
	}
	return string(res.Cells[0].Value), true, nil
}

func (r clientServer) rows(ctx context.Context, table string) ([]*hrpc.Result, error) {
	s, err := hrpc.NewScan(table)
	if err != nil {
		return nil, err
	}
	var out []*hrpc.Result
	for res, err := range r.c.Scan(ctx, s) {
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	return out, nil
}
