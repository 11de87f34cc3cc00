package region

import (
	"context"
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

// call is one outstanding RPC. Calls are pooled per Client; a call is reused only when the
// reader can no longer touch it.
type call struct {
	id   uint32
	done chan struct{} // capacity 1: the completer never blocks

	enc []byte // the encoded request frame (reused)
	mac []byte // the MACs of enc's tokens with a SplitLayer (reused)
	buf []byte // the response body (reused unless handed out as cells)

	// Set by the completer before signalling done.
	body, msg, cells []byte // body: the frame after the header; msg and cells alias it
	ev               frameEvidence
	remote           *hberr.RemoteError
	err              error
}

func (cl *call) complete(err error) {
	cl.err = err
	cl.done <- struct{}{}
}

// Buffers larger than this are not kept in pooled calls.
const maxPooledBuffer = 1 << 20

// Call sends one RPC. reqCells is an already encoded KeyValueCodec cellblock (may be nil).
// The response message is merged into resp (proto.UnmarshalOptions.Merge: give an empty message,
// or a recycled one whose set fields may be overwritten); the response's cellblock bytes are returned
// (they stay valid after return: the caller owns them).
//
// Errors: a *hberr.RemoteError for a server exception (errors.Is maps it to hberr.ErrRegionUnavailable,
// hberr.ErrRetryable, ...); an error wrapping hberr.ErrConnection or ErrClosed when the connection is or
// becomes dead; the context's error, at once, when ctx ends (the late response is dropped).
// resp may be nil to ignore the response message.
func (c *Client) Call(ctx context.Context, method string, req proto.Message, reqCells []byte, resp proto.Message) ([]byte, error) {
	return c.CallChecked(ctx, NormalPriority, method, req, reqCells, resp, nil)
}

// CallPriority is Call with a RequestHeader priority (e.g. HighPriority for meta lookups, which
// the server serves from its priority handlers).
func (c *Client) CallPriority(ctx context.Context, priority uint32, method string, req proto.Message, reqCells []byte, resp proto.Message) ([]byte, error) {
	return c.CallChecked(ctx, priority, method, req, reqCells, resp, nil)
}

// CallChecked is CallPriority that also runs check (when not nil) on the decoded response. A
// response whose message does not decode, or that check rejects, resets the connection (every
// other outstanding call fails with ErrConnection), is logged once per connection at error
// level with its call id, method, region, frame length and the first bytes of its header and
// body, and gives an error wrapping hberr.ErrCorruptResponse.
func (c *Client) CallChecked(ctx context.Context, priority uint32, method string, req proto.Message, reqCells []byte, resp proto.Message, check Checker) ([]byte, error) {
	return c.CallExtras(ctx, Extras{Priority: priority}, method, req, reqCells, resp, check)
}

// Extras are the fields of a call's RequestHeader its caller chooses.
type Extras struct {
	// Priority is RequestHeader.priority (0: not sent; the server then picks the priority by
	// method and table). Above 10 (HBase's QOS_THRESHOLD) the server serves the call from its
	// priority handlers, outside the queue of ordinary calls.
	Priority uint32
	// Attributes are RequestHeader.attribute: HBase 2.6's request attributes, which server-side
	// code reads from the RPC call (RpcCall.getRequestAttributes). Each needs a name.
	Attributes []*pb.NameBytesPair
	// Abort, when closed, ends the call as its context's end would, with an error wrapping
	// context.Canceled. A caller that may abandon a call (a hedged read's primary, once a
	// secondary answered) passes a channel it reuses instead of a cancellable context
	// made for each call.
	Abort <-chan struct{}
	// Encoded, when not nil, is called once the request's bytes (CallEncoded's param and
	// reqCells) are copied into its frame, before the wait for the answer: the caller may
	// reuse them from then on. A caller that holds them until the call returns keeps a
	// buffered writer's flush (megabytes) twice in memory while the server works.
	Encoded func()
}

// errAborted is the cause of a call ended by its Extras.Abort.
var errAborted = fmt.Errorf("abandoned by its caller: %w", context.Canceled)

// closed reports whether abort is closed (false for nil).
func closed(abort <-chan struct{}) bool {
	select {
	case <-abort:
		return true
	default:
		return false
	}
}

// endedErr is the cause of a wait that ctx or abort ended.
func endedErr(ctx context.Context, abort <-chan struct{}) error {
	if err := ctx.Err(); err != nil || !closed(abort) {
		return err
	}
	return errAborted
}

// CallExtras is CallChecked with the RequestHeader fields of x.
func (c *Client) CallExtras(ctx context.Context, x Extras, method string, req proto.Message, reqCells []byte, resp proto.Message, check Checker) ([]byte, error) {
	return c.call(ctx, x, method, req, nil, reqCells, resp, check)
}

// CallEncoded is CallExtras with the request message already encoded (param: the bytes of a
// valid message, sent as they are). Neither param nor reqCells is kept after it returns.
func (c *Client) CallEncoded(ctx context.Context, x Extras, method string, param, reqCells []byte, resp proto.Message, check Checker) ([]byte, error) {
	if param == nil {
		param = []byte{} // an empty message: a nil request is CallExtras's
	}
	return c.call(ctx, x, method, nil, param, reqCells, resp, check)
}

// call is CallExtras with the request message req, or its encoding param when param is not nil.
func (c *Client) call(ctx context.Context, x Extras, method string, req proto.Message, param, reqCells []byte, resp proto.Message, check Checker) ([]byte, error) {
	if err := c.checkCall(ctx, x, method, resp); err != nil {
		return nil, err
	}
	h := requestHeader{method: method, priority: x.Priority, attrs: x.Attributes}
	if c.cfg.TraceContext {
		h.traceInfo = traceInfoFrom(ctx)
	}
	h.timeoutMs = serverTimeout(ctx)
	if param == nil && (req == nil || !req.ProtoReflect().IsValid()) {
		return nil, errNilRequest
	}
	cl, err := c.encode(&h, x.Encoded, req, param, reqCells)
	if err != nil {
		return nil, err
	}
	if _, multi := req.(*pb.MultiRequest); multi {
		// Encoded, the request is needed after the answer only to name its region in the log
		// of a corrupt response (corrupt.go), and a MultiRequest names none. Not holding it
		// while the answer comes lets the GC take a batch's messages and cellblock (a buffered
		// writer's flush: megabytes) during the wait.
		req = nil
	}
	others, lone, err := c.register(cl)
	if err != nil {
		return nil, err
	}
	if lone {
		return c.callLone(ctx, x.Abort, cl, method, req, resp, check)
	}
	return c.sendAndWait(ctx, x.Abort, cl, others, method, req, resp, check)
}

// checkCall refuses a call before anything is encoded: its context or abort ended, the
// connection is dead, resp is a nil message or an attribute has no name.
func (c *Client) checkCall(ctx context.Context, x Extras, method string, resp proto.Message) error {
	if err := endedErr(ctx, x.Abort); err != nil {
		return fmt.Errorf("region: %s %s: %w", c.addr, method, err)
	}
	if c.dead.Load() {
		return c.Err()
	}
	if resp != nil && !resp.ProtoReflect().IsValid() {
		return fmt.Errorf("region: %s: response message is a nil %T", method, resp)
	}
	for _, a := range x.Attributes {
		if a == nil || a.Name == nil {
			return fmt.Errorf("%w: region: request attribute without a name", hberr.ErrBadRequest)
		}
	}
	return nil
}

// serverTimeout is the RequestHeader timeout for ctx's deadline, in milliseconds (0: none).
// It lets the server skip the call if it waited in its queue past our deadline.
func serverTimeout(ctx context.Context) uint32 {
	dl, ok := ctx.Deadline()
	if !ok {
		return 0
	}
	ms := time.Until(dl).Milliseconds()
	switch {
	case ms < 1:
		ms = 1
	case ms > math.MaxUint32:
		ms = math.MaxUint32
	}
	return uint32(ms)
}

// encode takes a call from the pool, gives it the next call id and encodes the request
// frame into it; encoded (when not nil) is called once the caller's bytes are copied.
func (c *Client) encode(h *requestHeader, encoded func(), req proto.Message, param, reqCells []byte) (*call, error) {
	cl := c.callPool.Get().(*call)
	cl.id = c.nextID.Add(1) & math.MaxInt32 // Java reads call ids as int32
	h.callID = cl.id
	var err error
	cl.enc, err = appendRequest(cl.enc[:0], h, req, param, reqCells, c.cfg.MaxFrameSize, &c.frames)
	if encoded != nil {
		encoded()
	}
	if err != nil {
		c.release(cl)
		return nil, err
	}
	return cl, nil
}

// register enters cl among the calls in flight, so that the reader finds it by its id.
// others reports whether another call is in flight; lone, that cl is the only one and its
// caller reads the response itself (lone.go). On a closed connection cl is released.
func (c *Client) register(cl *call) (others, lone bool, err error) {
	c.mu.Lock()
	if c.calls == nil {
		err = c.err
		c.mu.Unlock()
		c.release(cl)
		return false, false, err
	}
	c.calls[cl.id] = cl
	others = len(c.calls) > 1
	lone = c.lone && !c.reading // then cl is the only call in flight
	if lone {
		c.reading = true
	}
	c.mu.Unlock()
	return others, lone, nil
}

// sendAndWait hands the registered cl to the writer and waits for its response, its
// context's end or abort.
func (c *Client) sendAndWait(ctx context.Context, abort <-chan struct{}, cl *call, others bool, method string, req, resp proto.Message, check Checker) ([]byte, error) {
	c.stats.calls.Add(1)
	c.w.enqueue(c, cl, others)

	select {
	case <-cl.done:
	case <-ctx.Done():
		return nil, c.abandon(cl, method, ctx.Err())
	case <-abort:
		return nil, c.abandon(cl, method, errAborted)
	}
	return c.finish(cl, method, req, resp, check)
}

// abandon gives up waiting for cl, whose context or abort ended (cause).
func (c *Client) abandon(cl *call, method string, cause error) error {
	c.mu.Lock()
	mine := c.calls[cl.id] == cl
	if mine {
		delete(c.calls, cl.id)
	}
	c.mu.Unlock()
	if mine {
		c.release(cl)
	} // else the reader or fail() holds it and will signal done: let it go to the GC.
	return fmt.Errorf("region: %s %s: %w", c.addr, method, cause)
}

// finish turns a completed call into Call's results and recycles the call.
func (c *Client) finish(cl *call, method string, req, resp proto.Message, check Checker) ([]byte, error) {
	if cl.err != nil {
		err := cl.err
		c.release(cl)
		return nil, err
	}
	if cl.remote != nil {
		err := cl.remote
		c.release(cl)
		return nil, err
	}
	if resp != nil {
		var err error
		if d, ok := check.(Decoder); ok {
			err = d.Decode(cl.msg, resp)
		} else {
			err = (proto.UnmarshalOptions{Merge: true}).Unmarshal(cl.msg, resp)
		}
		if err != nil {
			err = c.corrupt(cl, method, req, fmt.Errorf("decode %T: %w", resp, err))
			c.release(cl)
			return nil, err
		}
	}
	if check != nil {
		if err := check.CheckResponse(resp, cl.cells); err != nil {
			err = c.corrupt(cl, method, req, err)
			c.release(cl)
			return nil, err
		}
	}
	cells := cl.cells
	if cells != nil {
		// The caller owns the cellblock, which aliases the body buffer.
		cl.buf = nil
	}
	c.release(cl)
	return cells, nil
}

func (c *Client) release(cl *call) {
	cl.body, cl.msg, cl.cells, cl.remote, cl.err = nil, nil, nil, nil, nil
	if cap(cl.enc) > maxPooledBuffer {
		cl.enc = nil
	}
	if cap(cl.buf) > maxPooledBuffer {
		cl.buf = nil
	}
	c.callPool.Put(cl)
}
