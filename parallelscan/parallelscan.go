package parallelscan

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"sync"
	"sync/atomic"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/engine"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/wire"
)

// Option configures a parallel scan (New, Scan).
type Option func(*options) error

type options struct {
	concurrency int
	ordered     bool
	token       []byte
	resume      bool
}

// DefaultConcurrency is how many key ranges a parallel scan reads at once when
// WithConcurrency is not given.
const DefaultConcurrency = 4

// chunkRows bounds the rows a parallel scan's worker hands over at once.
const chunkRows = 256

// orderedReadAhead is how many chunks an ordered parallel scan keeps per range read ahead of
// the one being returned: with the scanner's own response, what a range waiting its turn
// holds in memory.
const orderedReadAhead = 8

// WithConcurrency sets how many key ranges (regions) a parallel scan reads at once: n
// scanners, each on its own goroutine (default DefaultConcurrency).
func WithConcurrency(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("%w: WithConcurrency(%d): must be at least 1", hberr.ErrBadRequest, n)
		}
		o.concurrency = n
		return nil
	}
}

// WithOrder returns the rows of a parallel scan in key order, as a single scan would: the
// ranges after the one being returned are read ahead, up to the concurrency, and wait in
// memory (about 2000 rows and one response each), then wait for their turn. Without it rows
// come in the order they arrive, which is fastest.
func WithOrder() Option {
	return func(o *options) error {
		o.ordered = true
		return nil
	}
}

// WithResume resumes a parallel scan from a token an earlier scan of the same Scan gave
// (Scanner.Token): only the rows that scan had not returned are returned. A token of
// another table or range, or one that is damaged, ends the scan with hberr.ErrBadRequest.
func WithResume(token []byte) Option {
	return func(o *options) error {
		o.token, o.resume = token, true
		return nil
	}
}

// Scanner reads the rows of a Scan with several scanners at once, one per key range:
// the scan's range cut at the table's region boundaries. It is for batch jobs: every row of
// the range exactly once, whatever the regions do meanwhile (a range's scanner follows its
// region's moves and splits as a Scanner does), in any order or in key order (WithOrder),
// and resumable: Token says what is left, at any point, and WithResume starts a new scan
// there.
//
//	ps := parallelscan.New(ctx, client, scan, parallelscan.WithConcurrency(8))
//	defer ps.Close()
//	for ps.Next() {
//		row := ps.Result()
//		...
//	}
//	if err := ps.Err(); err != nil {
//		save(ps.Token()) // resume later with parallelscan.WithResume
//	}
//
// A loop over All returns the same rows as an iterator, and leaves Token valid after it (see
// All). Nothing is sent until the first Next (or the first row All is asked for), which reads
// the table's regions from hbase:meta (and caches them). A Scanner is not safe for concurrent use, except for Close. Reversed
// scans are refused (hberr.ErrBadRequest). A Scan's Limit caps the rows of the whole scan.
// With BatchSize or AllowPartialResults, a row whose pieces were not all returned when the
// token was taken is returned again from its first piece by a resumed scan.
type Scanner struct {
	e     *engine.Client
	scan  *hrpc.Scan
	table string
	opts  options
	err   error // an option's error, until the first Next

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	closed atomic.Bool
	// spawn orders the workers' start (wg.Add) before a Close from another goroutine
	// (wg.Wait): a Close that came first leaves no worker to start.
	spawn sync.Mutex

	started bool
	done    bool
	ranges  []*parallelRange
	nextIdx atomic.Int64 // the next range a worker takes
	ch      chan chunk   // unordered: every range's chunks
	active  int          // unordered: ranges not ended
	cur     int          // ordered: the range being returned

	chunk chunk
	pos   int
	res   *hrpc.Result
	limit uint32 // rows still allowed; 0 without a limit
}

// parallelRange is one range of a parallel scan. The consumer's Next is the only one to touch
// left and done: what is left of the range once the rows returned so far are counted.
type parallelRange struct {
	scan keyRange
	left keyRange
	done bool
	ch   chan chunk // ordered
}

// chunk is what a worker hands over: rows of range rng in order, or the range's end (err nil
// when it ran to its end).
type chunk struct {
	rng  int
	rows []*hrpc.Result
	end  bool
	err  error
}

// New starts a parallel scan of s through c. ctx bounds the whole scan: when it ends, Next
// returns false, Err says why and Token says what is left.
func New(ctx context.Context, c *hbase.Client, s *hrpc.Scan, opts ...Option) *Scanner {
	p := &Scanner{e: engine.Of(c), scan: s}
	p.opts.concurrency = DefaultConcurrency
	for _, o := range opts {
		if err := o(&p.opts); err != nil && p.err == nil {
			p.err = &hberr.OpError{Op: "ParallelScan", Err: err}
		}
	}
	if s == nil {
		p.err = engine.NilRequest("ParallelScan")
		return p
	}
	p.table = hrpcwire.Scan(s).TableName()
	if p.err != nil {
		p.err.(*hberr.OpError).Table = p.table
	}
	p.ctx, p.cancel = context.WithCancel(ctx)
	return p
}

// Scan returns the rows of a parallel scan of s through c as an iterator: New(ctx, c, s,
// opts...).All() for a loop that needs no token. To resume after a failed or broken loop, make
// the Scanner with New and range over its All, whose Token says what is left after the loop.
// Breaking out of the loop stops every scanner of the scan and waits for them.
func Scan(ctx context.Context, c *hbase.Client, s *hrpc.Scan, opts ...Option) iter.Seq2[*hrpc.Result, error] {
	return func(yield func(*hrpc.Result, error) bool) {
		New(ctx, c, s, opts...).All()(yield)
	}
}

// All returns the rows of the scan as an iterator, for a loop after which the Scanner's Token
// says what is left:
//
//	ps := parallelscan.New(ctx, client, scan)
//	for row, err := range ps.All() {
//		if err != nil {
//			return save(ps.Token()) // the scan failed: resume later with WithResume
//		}
//		if err := process(row); err != nil {
//			return save(ps.Token()) // row is left to the resumed scan
//		}
//	}
//
// A row counts as returned once the loop's body asks for the next one: the row the loop
// breaks out on is left to a resumed scan (at least once: a body that breaks after dealing
// with its row sees it again there), and a Token taken in the body leaves out the rows before
// the current one. When the scan fails, the loop's last value is (nil, err), err being Err.
// The loop's end, by a break or not, closes the Scanner (its scanners stop, its goroutines
// end); Token and Err keep their values. All is for one loop, and not to be mixed with Next.
func (p *Scanner) All() iter.Seq2[*hrpc.Result, error] {
	return func(yield func(*hrpc.Result, error) bool) {
		defer p.Close()
		for {
			pr, r := p.advance()
			if r == nil {
				break
			}
			if !yield(r, nil) {
				return
			}
			p.returned(pr, r)
		}
		if p.err != nil {
			yield(nil, p.err)
		}
	}
}

// Next moves to the next row and reports whether there is one. It returns false at the end
// of the scan, after an error (see Err) and after Close.
func (p *Scanner) Next() bool {
	pr, r := p.advance()
	if r == nil {
		return false
	}
	p.returned(pr, r)
	return true
}

// advance moves to the next row and returns it with its range, not yet counted as returned
// (returned); nil at the end of the scan, after an error and after Close.
func (p *Scanner) advance() (*parallelRange, *hrpc.Result) {
	p.res = nil
	if p.err != nil || p.done {
		return nil, nil
	}
	if !p.started {
		p.started = true
		if err := p.start(); err != nil {
			p.fail(&hberr.OpError{Op: "ParallelScan", Table: p.table, Err: engine.UserError(err)})
			return nil, nil
		}
	}
	for {
		if p.ctx.Err() != nil {
			// Stopped: the rows received but not returned are left to a resumed scan.
			p.fail(p.ctxError())
			return nil, nil
		}
		if p.pos < len(p.chunk.rows) {
			r := p.chunk.rows[p.pos]
			p.chunk.rows[p.pos] = nil
			p.pos++
			p.res = r
			return p.ranges[p.chunk.rng], r
		}
		if !p.receive() {
			return nil, nil
		}
	}
}

// Result is the row the last successful Next moved to.
func (p *Scanner) Result() *hrpc.Result { return p.res }

// Err is the error that ended the scan, or nil when it ran to its end or was closed: the
// first error of any of its scanners (an *hberr.OpError naming the row its range was at), or
// the context's.
func (p *Scanner) Err() error { return p.err }

// Token returns what is left of the scan after the rows returned so far, for WithResume: an
// opaque, versioned byte string a batch job can store. Every row Next returned is counted as
// done, so call it after the last row was dealt with; in a loop over All, the row the body is
// dealing with is not (see All). Before the first row is asked for it is nil (resume with the
// scan itself); after a scan ran to its end it holds no range. It stays valid after Close.
func (p *Scanner) Token() []byte {
	if !p.started || p.ranges == nil && p.err != nil {
		if p.opts.resume {
			return p.opts.token
		}
		return nil
	}
	var left []keyRange
	for _, r := range p.ranges {
		if !r.done {
			left = append(left, r.left)
		}
	}
	return encodeToken(p.table, left)
}

// Close stops the scan: its scanners stop and are closed, and Close returns once their
// goroutines have ended. It is safe to call more than once and from another goroutine than
// Next's.
func (p *Scanner) Close() error {
	p.spawn.Lock()
	p.closed.Store(true)
	p.spawn.Unlock()
	if p.cancel != nil {
		p.cancel()
	}
	p.wg.Wait()
	return nil
}

func (p *Scanner) fail(err error) {
	if p.closed.Load() {
		err = nil // closed by the caller: no error, as Scanner
	}
	p.err, p.done = err, true
	p.cancel()
	p.wg.Wait()
}

func (p *Scanner) finish() {
	p.done = true
	p.cancel()
	p.wg.Wait()
}

// start reads the ranges to scan (the scan's own, or what the token left), cuts them at the
// table's region boundaries and starts the workers.
func (p *Scanner) start() error {
	w := hrpcwire.Scan(p.scan)
	spec := w.ProtoInto(new(wire.ScanProtoBuffer))
	if w.Reversed() {
		return fmt.Errorf("%w: a parallel scan cannot be reversed", hberr.ErrBadRequest)
	}
	if p.table == engine.MetaTableName {
		// Its rows are not in byte order (internal/metarow), and it is one region.
		return fmt.Errorf("%w: a parallel scan of hbase:meta", hberr.ErrBadRequest)
	}
	whole := keyRange{start: spec.StartRow, after: !spec.GetIncludeStartRow(), stop: spec.StopRow}
	if spec.IncludeStartRow == nil {
		whole.after = false
	}
	ranges := []keyRange{whole}
	if p.opts.resume {
		table, rs, err := decodeToken(p.opts.token)
		if err != nil {
			return err
		}
		if table != p.table {
			return fmt.Errorf("%w: parallel scan token of table %q, not %q", hberr.ErrBadRequest, table, p.table)
		}
		for _, r := range rs {
			if !within(r, whole) {
				return fmt.Errorf("%w: parallel scan token range [%q, %q) is not in the scan's [%q, %q)",
					hberr.ErrBadRequest, r.start, r.stop, whole.start, whole.stop)
			}
		}
		ranges = rs
	}
	if w.Limit() > 0 {
		p.limit = w.Limit()
	}
	if len(ranges) > 0 {
		regions, err := p.e.MetaRegions(p.ctx, p.table)
		if err != nil {
			return err
		}
		// Warm the cache: the workers' first opens need no lookup each. A failure here is
		// only a lost head start.
		_ = p.e.CacheRegionList(p.ctx, p.table, regions)
		var bounds [][]byte
		for _, r := range regions {
			if len(r.Start) != 0 {
				bounds = append(bounds, r.Start)
			}
		}
		var cut []keyRange
		for _, r := range ranges {
			cut = append(cut, splitRange(r, bounds)...)
		}
		ranges = cut
	}
	p.ranges = make([]*parallelRange, len(ranges))
	for i, r := range ranges {
		p.ranges[i] = &parallelRange{scan: r, left: r}
	}
	n := min(p.opts.concurrency, len(ranges))
	if p.opts.ordered {
		for _, r := range p.ranges {
			r.ch = make(chan chunk, orderedReadAhead)
		}
	} else {
		p.ch = make(chan chunk, 2*n)
		p.active = len(ranges)
	}
	p.spawn.Lock()
	defer p.spawn.Unlock()
	if p.closed.Load() {
		return nil // Next sees the context cancelled
	}
	p.wg.Add(n)
	for range n {
		go p.work()
	}
	return nil
}

// within reports whether r lies in whole.
func within(r, whole keyRange) bool {
	if c := bytes.Compare(r.start, whole.start); c < 0 || (c == 0 && whole.after && !r.after) {
		return false
	}
	if len(whole.stop) == 0 {
		return true
	}
	return len(r.stop) != 0 && bytes.Compare(r.stop, whole.stop) <= 0
}

// splitRange cuts r at every boundary (sorted region start keys) strictly inside it.
func splitRange(r keyRange, bounds [][]byte) []keyRange {
	var out []keyRange
	for _, b := range bounds {
		if bytes.Compare(b, r.start) <= 0 {
			continue
		}
		if len(r.stop) != 0 && bytes.Compare(b, r.stop) >= 0 {
			break
		}
		out = append(out, keyRange{start: r.start, after: r.after, stop: b})
		r = keyRange{start: b, stop: r.stop}
	}
	return append(out, r)
}

// work runs scanners on ranges until none is left or the scan stops.
func (p *Scanner) work() {
	defer p.wg.Done()
	for {
		i := int(p.nextIdx.Add(1)) - 1
		if i >= len(p.ranges) || p.ctx.Err() != nil {
			return
		}
		if !p.scanRange(i) {
			return
		}
	}
}

// scanRange scans range i and hands its rows over in chunks; false when the scan stopped.
func (p *Scanner) scanRange(i int) bool {
	r := p.ranges[i]
	ch := p.ch
	if r.ch != nil {
		ch = r.ch
	}
	send := func(ck chunk) bool {
		select {
		case ch <- ck:
			return true
		case <-p.ctx.Done():
			return false
		}
	}
	sc := p.e.OwnedScanner(p.ctx, p.scan)
	defer p.e.ReleaseScanner(sc)
	sc.Restrict(r.scan.start, r.scan.stop, r.scan.after)
	var rows []*hrpc.Result
	for sc.Next() {
		rows = append(rows, sc.Result())
		// A chunk goes as soon as the scanner would have to ask the server for more: a
		// chunk never waits for an RPC.
		if len(rows) == chunkRows || !sc.Buffered() {
			if !send(chunk{rng: i, rows: rows}) {
				return false
			}
			rows = nil
		}
	}
	if len(rows) > 0 && !send(chunk{rng: i, rows: rows}) {
		return false
	}
	return send(chunk{rng: i, end: true, err: sc.Err()})
}

// receive takes the next chunk of rows to return; false when the scan is over (p.err says
// whether it failed).
func (p *Scanner) receive() bool {
	for {
		var ck chunk
		if p.opts.ordered {
			if p.cur == len(p.ranges) {
				p.finish()
				return false
			}
			select {
			case ck = <-p.ranges[p.cur].ch:
			case <-p.ctx.Done():
				p.fail(p.ctxError())
				return false
			}
		} else {
			if p.active == 0 {
				p.finish()
				return false
			}
			select {
			case ck = <-p.ch:
			case <-p.ctx.Done():
				p.fail(p.ctxError())
				return false
			}
		}
		if !ck.end {
			p.chunk, p.pos = ck, 0
			return true
		}
		if ck.err != nil {
			p.fail(ck.err)
			return false
		}
		p.ranges[ck.rng].done = true
		p.cur++
		p.active--
	}
}

func (p *Scanner) ctxError() error {
	return &hberr.OpError{Op: "ParallelScan", Table: p.table, Err: engine.CtxErr(p.ctx, nil)}
}

// returned counts row r of range pr as returned: the range's rest starts after it (at it,
// when more pieces of the row may come), and the scan's limit shrinks.
func (p *Scanner) returned(pr *parallelRange, r *hrpc.Result) {
	switch {
	case r.Cursor != nil:
		// The server has read up to the cursor's row and found nothing to return: the rest
		// starts there (the row itself again, whatever the server meant).
		if bytes.Compare(r.Cursor, pr.left.start) > 0 {
			pr.left.start, pr.left.after = r.Cursor, false
		}
		return
	case len(r.Cells) == 0:
		return
	}
	pr.left.start, pr.left.after = r.Cells[0].Row, !r.Partial
	if p.limit > 0 && !r.Partial {
		if p.limit--; p.limit == 0 {
			// The last row allowed: the next Next ends the scan.
			p.done = true
			p.cancel()
			p.wg.Wait()
		}
	}
}
