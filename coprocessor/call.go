package coprocessor

import (
	"context"
	"fmt"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// Call calls method m of a coprocessor endpoint on the region of table that holds row, with
// request req, and decodes the method's response into resp (a message of the type the method
// returns). The call is routed and retried as a Get is: a region that moves or splits is
// found again, until ctx ends or the client's attempts are used up. An endpoint the region
// does not have (its coprocessor not loaded) fails at once with an error matching
// hberr.ErrNotSupported whose message names the service.
//
// Every error is an *hberr.OpError whose Op is m ("AggregateService.GetSum").
func Call(ctx context.Context, c *hbase.Client, table string, row []byte, m Method, req, resp proto.Message, opts ...Option) error {
	o, e, request, err := prepare(c, table, m, req, opts)
	if err == nil && resp == nil {
		err = fmt.Errorf("coprocessor: %w: nil response message", hberr.ErrBadRequest)
	}
	call := wire.NewExecCall(table, row, m.Service, m.Name, request, o.idempotent)
	if err != nil {
		return engine.OpError(call, err)
	}
	msg, _, err := e.Send(ctx, call)
	if err != nil {
		return engine.OpError(call, err)
	}
	if err := decode(m, msg, resp); err != nil {
		return engine.OpError(call, err)
	}
	return nil
}

// prepare checks what every call needs and encodes the request.
func prepare(c *hbase.Client, table string, m Method, req proto.Message, opts []Option) (options, *engine.Client, []byte, error) {
	o, err := applyOptions(opts)
	if err != nil {
		return o, nil, nil, err
	}
	var e *engine.Client
	if c != nil {
		e = engine.Of(c)
	}
	if e == nil {
		return o, nil, nil, fmt.Errorf("coprocessor: %w: nil client", hberr.ErrBadRequest)
	}
	if err := wire.CheckTableName(table); err != nil {
		return o, nil, nil, err
	}
	if m.Service == "" || m.Name == "" {
		return o, nil, nil, fmt.Errorf("coprocessor: %w: method %q of service %q: both names are needed", hberr.ErrBadRequest, m.Name, m.Service)
	}
	if req == nil {
		return o, nil, nil, fmt.Errorf("coprocessor: %w: nil request message", hberr.ErrBadRequest)
	}
	request, err := proto.MarshalOptions{Deterministic: true}.Marshal(req)
	if err != nil {
		return o, nil, nil, fmt.Errorf("coprocessor: %w: encoding the request of %s: %v", hberr.ErrBadRequest, m, err)
	}
	return o, e, request, nil
}

// decode reads the method's response out of the CoprocessorServiceResponse msg into resp.
func decode(m Method, msg proto.Message, resp proto.Message) error {
	r, ok := msg.(*pb.CoprocessorServiceResponse)
	if !ok {
		return wire.BadResponse("%T for a CoprocessorServiceRequest", msg)
	}
	if err := proto.Unmarshal(wire.ExecValue(r), resp); err != nil {
		return fmt.Errorf("decoding the response of %s as %s: %w", m, resp.ProtoReflect().Descriptor().FullName(), err)
	}
	return nil
}
