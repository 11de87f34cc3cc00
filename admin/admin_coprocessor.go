package admin

import (
	"context"
	"fmt"

	"github.com/go-hbase/hbase/coprocessor"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// CoprocessorService calls method m of a coprocessor endpoint loaded on the active master
// (hbase.coprocessor.master.classes), with request req, and decodes the method's response
// into resp: Java's Admin.coprocessorService(). A service the master does not have fails with
// an error matching hberr.ErrNotSupported that names it. The call is sent again to a new
// master after a failover, as every master call is.
func (a *Admin) CoprocessorService(ctx context.Context, m coprocessor.Method, req, resp proto.Message) error {
	ctx, call := a.begin(ctx, "CoprocessorService", m.String(), "")
	request, err := endpointRequest(m, req, resp)
	if err == nil {
		var r pb.CoprocessorServiceResponse
		if err = a.callMaster(ctx, wire.MethodExecMasterService, request, &r); err == nil {
			err = endpointResponse(m, &r, resp)
		}
	}
	return call.end(ctx, err)
}

// RegionServerCoprocessorService calls method m of a coprocessor endpoint loaded on the region
// server at server ("host:port" or "host,port,startcode"; hbase.coprocessor.regionserver.classes),
// with request req, and decodes the method's response into resp: Java's
// Admin.coprocessorService(ServerName). It is sent once: a server that fails is the call's
// error (hberr.ErrServerNotFound for one that is not live).
func (a *Admin) RegionServerCoprocessorService(ctx context.Context, server string, m coprocessor.Method, req, resp proto.Message) error {
	ctx, call := a.begin(ctx, "RegionServerCoprocessorService", m.String(), "")
	return call.end(ctx, a.regionServerEndpoint(ctx, server, m, req, resp))
}

func (a *Admin) regionServerEndpoint(ctx context.Context, server string, m coprocessor.Method, req, resp proto.Message) error {
	request, err := endpointRequest(m, req, resp)
	if err != nil {
		return err
	}
	sn, err := a.liveServer(ctx, server)
	if err != nil {
		return err
	}
	// A connection of its own, closed after the call: the Admin keeps AdminService
	// connections, and the method is ClientService's; a server's endpoint is rarely called.
	conn, err := a.e.DialServer(ctx, sn.Addr(), append(a.e.ConnOptions(), region.WithService(wire.RegionServerEndpointService)))
	if err != nil {
		return err
	}
	defer conn.Close()
	var r pb.CoprocessorServiceResponse
	if err := engine.ObservedRPC(ctx, a.adminObs(ctx), conn, nil, wire.MethodExecRegionServerService, request, &r); err != nil {
		return err
	}
	return endpointResponse(m, &r, resp)
}

// endpointRequest checks a server endpoint call's arguments and builds its request.
func endpointRequest(m coprocessor.Method, req, resp proto.Message) (*pb.CoprocessorServiceRequest, error) {
	switch {
	case m.Service == "" || m.Name == "":
		return nil, fmt.Errorf("%w: method %q of service %q: both names are needed", hberr.ErrBadRequest, m.Name, m.Service)
	case req == nil:
		return nil, fmt.Errorf("%w: nil request message", hberr.ErrBadRequest)
	case resp == nil:
		return nil, fmt.Errorf("%w: nil response message", hberr.ErrBadRequest)
	}
	request, err := proto.MarshalOptions{Deterministic: true}.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("%w: encoding the request of %s: %v", hberr.ErrBadRequest, m, err)
	}
	return wire.ExecServerRequest(m.Service, m.Name, request), nil
}

// endpointResponse decodes the method's response out of r into resp.
func endpointResponse(m coprocessor.Method, r *pb.CoprocessorServiceResponse, resp proto.Message) error {
	if r.GetValue() == nil {
		return wire.BadResponse("coprocessor response of %s without a value", m)
	}
	if err := proto.Unmarshal(wire.ExecValue(r), resp); err != nil {
		return fmt.Errorf("decoding the response of %s as %s: %w", m, resp.ProtoReflect().Descriptor().FullName(), err)
	}
	return nil
}
