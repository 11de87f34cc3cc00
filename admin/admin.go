package admin

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"github.com/go-hbase/hbase/region"
	"google.golang.org/protobuf/proto"
)

// Admin makes the cluster's administrative calls: tables, namespaces, regions, the balancer
// and normalizer, snapshots, the cluster status and replication peers. It shares its Client's
// registry (ZooKeeper or bootstrap servers), security, retry settings and lifetime: make it
// with New, share it, and Close it, or close the Client, which closes it.
//
// Calls to the master go to the active master, found through the registry; when it fails
// or restarts the call finds the new one and sends again, until the call's context ends.
// Calls that start a master procedure (create, delete, enable, disable, truncate and modify
// a table, namespaces, split, merge, restore and clone, replication peer changes) wait for it
// to finish, across master restarts, and return its error. Each but the peer changes is sent
// with a nonce, so that sending it again after a restart does not run it twice; HBase's peer
// calls take none, so a peer change sent again after a restart may find itself done (an add
// then fails with hberr.ErrPeerExists). Every error is an *hberr.AdminError naming the call.
type Admin struct {
	c          *hbase.Client
	e          *engine.Client
	nonceGroup uint64
	unhook     func() // stops the client's Close from closing this Admin

	mu     sync.Mutex
	master *region.Client            // the active master's MasterService connection, or nil
	rs     map[string]*region.Client // AdminService connections, by server address
}

// New returns an Admin of the cluster c talks to. It connects to the master or a region server
// when a call needs one, and keeps those connections until Close (or c's Close).
func New(c *hbase.Client) *Admin {
	a := &Admin{c: c, e: engine.Of(c), nonceGroup: rand.Uint64(), rs: make(map[string]*region.Client)}
	a.unhook = a.e.OnClose(a.close)
	return a
}

// Close closes the Admin's connections to the master and the region servers. Calls made
// after it connect again. It is safe to call more than once; the client's Close calls it.
func (a *Admin) Close() error {
	a.unhook()
	a.close()
	return nil
}

// close closes the admin connections.
func (a *Admin) close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.master != nil {
		a.master.Close()
		a.master = nil
	}
	for addr, conn := range a.rs {
		conn.Close()
		delete(a.rs, addr)
	}
}

func (a *Admin) nonce() wire.Nonce { return wire.Nonce{Group: a.nonceGroup, Nonce: rand.Uint64()} }

func adminError(op, name string, err error) error {
	if err == nil {
		return nil
	}
	return &hberr.AdminError{Op: op, Name: name, Err: engine.UserError(err)}
}

// masterConn returns the connection to the active master, locating and dialling it if
// there is none.
func (a *Admin) masterConn(ctx context.Context) (*region.Client, error) {
	if conn := a.kept(func() *region.Client { return a.master }); conn != nil {
		return conn, nil
	}
	addr, err := a.e.Reg.LocateMaster(ctx)
	if err != nil {
		return nil, fmt.Errorf("locating the active master: %w", err)
	}
	conn, err := a.dialKept(ctx, addr, wire.MasterService, func() *region.Client { return a.master },
		func(c *region.Client) { a.master = c })
	if err == nil {
		a.e.Log.Debug("hbase: admin connected to the master", "addr", addr)
	}
	return conn, err
}

// kept returns the live connection get returns (under a.mu), or nil.
func (a *Admin) kept(get func() *region.Client) *region.Client {
	a.mu.Lock()
	conn := get()
	a.mu.Unlock()
	if conn != nil && !engine.IsDead(conn) {
		return conn
	}
	return nil
}

// dialKept dials the service at addr and keeps the connection with set (under a.mu), unless
// the client closed meanwhile or another call kept a live one first (get), which it returns.
func (a *Admin) dialKept(ctx context.Context, addr, service string, get func() *region.Client,
	set func(*region.Client)) (*region.Client, error) {
	conn, err := a.e.DialServer(ctx, addr, append(a.e.ConnOptions(), region.WithService(service)))
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.e.IsClosed() {
		conn.Close()
		return nil, hberr.ErrClosed
	}
	if old := get(); old != nil && !engine.IsDead(old) {
		conn.Close() // another call dialled meanwhile
		return old, nil
	}
	set(conn)
	return conn, nil
}

// dropMaster forgets conn as the master connection, so the next call locates the master
// again.
func (a *Admin) dropMaster(conn *region.Client) {
	if conn == nil {
		return
	}
	a.mu.Lock()
	if a.master == conn {
		a.master = nil
	}
	a.mu.Unlock()
	conn.Close()
}

// classifyMaster decides how a master call reacts to err: a master stopping, starting or
// gone (connection broken, not active any more) is looked up again through the registry.
func classifyMaster(err error) engine.RetryAction {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, hberr.ErrClosed), errors.Is(err, hberr.ErrConfiguration), errors.Is(err, engine.ErrNoMasterLookup),
		errors.Is(err, hberr.ErrBadRequest), errors.Is(err, hberr.ErrInvalidName):
		return engine.GiveUp
	case errors.Is(err, hberr.ErrServerStopping), errors.Is(err, hberr.ErrConnection),
		errors.Is(err, region.ErrClosed):
		return engine.PauseAndRelocate
	case errors.Is(err, hberr.ErrDoNotRetry):
		return engine.GiveUp
	}
	if _, ok := errors.AsType[*hberr.RemoteError](err); ok {
		return engine.Pause
	}
	// Locating or dialling the master failed (no active master yet, refused connection).
	return engine.PauseAndRelocate
}

// masterRemoteRetries bounds how often callMaster sends a call again after an exception of
// the master that is not classified (neither retryable nor do-not-retry).
const masterRemoteRetries = 3

// callMaster sends req to the active master and reads its answer into resp, retrying as
// classifyMaster says until ctx ends.
func (a *Admin) callMaster(ctx context.Context, method string, req, resp proto.Message) error {
	b := a.e.NewBackoff()
	o := a.adminObs(ctx)
	var last error
	remoteRetries := 0
	for {
		if a.e.IsClosed() {
			return hberr.ErrClosed
		}
		if ctx.Err() != nil {
			return engine.CtxErr(ctx, last)
		}
		conn, err := a.masterConn(ctx)
		if err == nil {
			if err = engine.ObservedRPC(ctx, o, conn, nil, method, req, resp); err == nil {
				return nil
			}
		}
		if a.e.IsClosed() {
			return hberr.ErrClosed
		}
		if ctx.Err() != nil {
			return engine.CtxErr(ctx, last)
		}
		last = err
		switch classifyMaster(err) {
		case engine.GiveUp:
			return err
		case engine.PauseAndRelocate, engine.Relocate:
			a.e.Log.Debug("hbase: master call failed, locating the master again", "method", method, "err", err)
			a.dropMaster(conn)
			engine.ReportRetry(ctx, o, conn, err, true)
		case engine.Pause:
			// An exception the master raised that says neither "retry" nor "do not": a
			// plain IOException is often a refusal (a restore of an enabled table). Retry a
			// few times, as the Java client would, but do not wait for the deadline on it.
			if remoteRetries++; remoteRetries > masterRemoteRetries {
				return err
			}
			engine.ReportRetry(ctx, o, conn, err, false)
		}
		if b.Sleep(ctx) != nil {
			return engine.CtxErr(ctx, last)
		}
	}
}

// procedurePoll bounds the pause between two polls of a running procedure.
const (
	procedurePollMin = 20 * time.Millisecond
	procedurePollMax = 500 * time.Millisecond
)

// waitProcedure waits until master procedure id has finished and returns its error, or until
// ctx ends. Polls go through callMaster, so a master restart is survived. A procedure the
// master does not know (finished and forgotten across a restart) is checked with done, when
// given: the procedure is over when done says the outcome is there.
func (a *Admin) waitProcedure(ctx context.Context, id uint64, done func(context.Context) (bool, error)) error {
	b := engine.Backoff{Min: procedurePollMin, Max: procedurePollMax}
	for {
		resp := &pb.GetProcedureResultResponse{}
		if err := a.callMaster(ctx, wire.MethodGetProcedureResult, wire.ProcedureResultRequest(id), resp); err != nil {
			return err
		}
		state, err := wire.ParseProcedureResult(resp)
		switch state {
		case wire.ProcedureFinished:
			return err
		case wire.ProcedureNotFound:
			if done == nil {
				return nil
			}
			ok, err := done(ctx)
			if err != nil {
				return err
			}
			if ok {
				return nil
			}
			a.e.Log.Debug("hbase: procedure not found and its outcome not there yet", "proc", id)
		}
		if err := b.Sleep(ctx); err != nil {
			return engine.CtxErr(ctx, fmt.Errorf("procedure %d still running", id))
		}
	}
}

// procedure sends req, which starts a master procedure, and waits for it (see waitProcedure).
func (a *Admin) procedure(ctx context.Context, method string, req proto.Message, resp procResponse, done func(context.Context) (bool, error)) error {
	if err := a.callMaster(ctx, method, req, resp); err != nil {
		return err
	}
	return a.waitProcedure(ctx, resp.GetProcId(), done)
}

// procResponse is the answer of every call that starts a master procedure.
type procResponse interface {
	proto.Message
	GetProcId() uint64
}

// rsConn returns the AdminService connection to the region server at addr.
func (a *Admin) rsConn(ctx context.Context, addr string) (*region.Client, error) {
	get := func() *region.Client { return a.rs[addr] }
	if conn := a.kept(get); conn != nil {
		return conn, nil
	}
	return a.dialKept(ctx, addr, wire.AdminService, get, func(c *region.Client) { a.rs[addr] = c })
}
