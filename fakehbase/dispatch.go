package fakehbase

import (
	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/fakeserver"
	"github.com/go-hbase/hbase/internal/pb"
)

// call is one request being served: its frame, and the cellblock of its response.
type call struct {
	rs    *regionServer
	req   *fakeserver.Request
	codec bool // the connection takes cellblocks (KeyValueCodec)
	cells []byte
	// decoded request cells, and how many of them the actions read so far
	in    []kv
	inPos int
}

// handler serves one method of a service.
type handler func(c *call) (proto.Message, error)

// handle serves one request frame: by the service of its connection's header, then by
// method. Errors go back as the Java exceptions they stand for.
func (rs *regionServer) handle(r *fakeserver.Request) fakeserver.Response {
	hdr := r.Conn.Header()
	c := &call{rs: rs, req: r, codec: hdr.GetCellBlockCodecClass() != ""}
	if hdr.GetCellBlockCompressorClass() != "" {
		return rs.fail(r, unsupported("cellblock compression (%s)", hdr.GetCellBlockCompressorClass()))
	}
	var methods map[string]handler
	service := hdr.GetServiceName()
	switch service {
	case "ClientService":
		methods = clientMethods
	case "ClientMetaService":
		methods = registryMethods
	case "MasterService":
		if rs.idx == 0 {
			methods = masterMethods
		}
	case "AdminService":
		methods = adminMethods
	}
	if methods == nil {
		return rs.fail(r, jerr(unknownService, "%s", service))
	}
	h := methods[r.Method]
	if h == nil {
		return rs.fail(r, unsupported("%s.%s", service, r.Method))
	}
	if r.Cells != nil {
		cells, err := decodeCells(r.Cells)
		if err != nil {
			return rs.fail(r, badRequest("%v", err))
		}
		c.in = cells
	}
	msg, err := h(c)
	if err != nil {
		return rs.fail(r, err)
	}
	return fakeserver.Response{Msg: msg, Cells: c.cells}
}

func (rs *regionServer) fail(r *fakeserver.Request, err error) fakeserver.Response {
	je := asJava(err)
	rs.s.log.Debug("fakehbase: request failed", "method", r.Method, "err", je)
	return fakeserver.Response{Exception: je.response()}
}

// unmarshal decodes the request's message into m.
func (c *call) unmarshal(m proto.Message) error {
	if err := proto.Unmarshal(c.req.Param, m); err != nil {
		return badRequest("cannot read %s: %v", c.req.Method, err)
	}
	return nil
}

// takeCells returns the next n cells of the request's cellblock (a mutation's associated
// cells).
func (c *call) takeCells(n int) ([]kv, error) {
	if n < 0 || c.inPos+n > len(c.in) {
		return nil, badRequest("the request announces %d more cells than its cellblock has", c.inPos+n-len(c.in))
	}
	out := c.in[c.inPos : c.inPos+n]
	c.inPos += n
	return out, nil
}

// result builds the Result of cells: in the response cellblock when the connection takes
// cellblocks, else in the message.
func (c *call) result(cells []kv) *pb.Result {
	if c.codec {
		c.cells = appendCells(c.cells, cells)
		return &pb.Result{AssociatedCellCount: proto.Int32(int32(len(cells))), Stale: proto.Bool(false)}
	}
	r := &pb.Result{Stale: proto.Bool(false)}
	for i := range cells {
		k := &cells[i]
		r.Cell = append(r.Cell, &pb.Cell{Row: k.row, Family: k.family, Qualifier: k.qualifier,
			Timestamp: proto.Uint64(uint64(k.ts)), CellType: pb.CellType(k.typ).Enum(), Value: k.value})
	}
	return r
}
