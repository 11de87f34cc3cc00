package hrpc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

func TestMulti(t *testing.T) {
	put := mustPut(t, "t", []byte("r"))
	get, _ := NewGet("t", []byte("s"))
	var m wire.Multi
	if err := m.Add(get.batchable(), 0); err == nil {
		t.Error("Add before Region succeeded")
	}
	m.Region([]byte("empty"), 3)
	m.Region([]byte("one"), 0)
	if err := m.Add(put.batchable(), 3); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(get.batchable(), 5); err != nil {
		t.Fatal(err)
	}
	msg, cells := m.Request()
	var req pb.MultiRequest
	if err := proto.Unmarshal(msg, &req); err != nil {
		t.Fatal(err)
	}
	if len(req.RegionAction) != 1 || string(req.RegionAction[0].GetRegion().GetValue()) != "one" {
		t.Fatalf("region actions = %v (the empty one must be left out)", req.RegionAction)
	}
	ra := req.RegionAction[0]
	if len(ra.Action) != 2 || ra.Action[0].GetIndex() != 3 || ra.Action[1].GetIndex() != 5 || ra.Action[1].Get == nil {
		t.Fatalf("actions = %v", ra.Action)
	}
	if len(decodeAll(t, cells)) != 1 {
		t.Fatalf("cellblock holds %d cells, want the Put's one", len(decodeAll(t, cells)))
	}
}

// refMulti builds a MultiRequest as wire.Multi did before it encoded mutations itself: a
// pb.RegionAction of the calls' pb.Actions (their Action method), atomic calls' own
// pb.RegionActions. It is the reference the encoding must match.
type refMulti struct {
	req       pb.MultiRequest
	cur       *pb.RegionAction
	cellblock []byte
}

func (r *refMulti) region(name []byte) {
	r.cur = &pb.RegionAction{Region: wire.RegionSpecifier(name)}
}

func (r *refMulti) add(call wire.Batchable, index uint32) error {
	if r.cur == nil {
		return fmt.Errorf("add before region")
	}
	a, cells, err := call.Action(index, r.cellblock)
	if err != nil {
		return err
	}
	r.cellblock = cells
	if len(r.cur.Action) == 0 {
		r.req.RegionAction = append(r.req.RegionAction, r.cur)
	}
	r.cur.Action = append(r.cur.Action, a)
	return nil
}

func (r *refMulti) addAtomic(call wire.AtomicBatchable, name []byte) error {
	ra, cells, err := call.RegionAction(name, r.cellblock)
	if err != nil {
		return err
	}
	r.cellblock = cells
	r.req.RegionAction = append(r.req.RegionAction, ra)
	return nil
}

// multiPair drives a wire.Multi and its reference with the same calls.
type multiPair struct {
	t   testing.TB
	m   wire.Multi
	ref refMulti
}

func (p *multiPair) region(name []byte) {
	p.m.Region(name, 1)
	p.ref.region(name)
}

func (p *multiPair) add(call wire.Batchable, index uint32) {
	p.t.Helper()
	errGot, errRef := p.m.Add(call, index), p.ref.add(call, index)
	if (errGot == nil) != (errRef == nil) {
		p.t.Fatalf("Add: %v, reference: %v", errGot, errRef)
	}
}

func (p *multiPair) addAtomic(call wire.AtomicBatchable, name []byte) {
	p.t.Helper()
	errGot, errRef := p.m.AddAtomic(call, name), p.ref.addAtomic(call, name)
	if (errGot == nil) != (errRef == nil) {
		p.t.Fatalf("AddAtomic: %v, reference: %v", errGot, errRef)
	}
}

// check: the encoded request decodes to the reference's message, its bytes are proto.Marshal's
// of it, and the cellblocks are the same.
func (p *multiPair) check() {
	p.t.Helper()
	msg, cells := p.m.Request()
	want, errRef := proto.Marshal(&p.ref.req)
	var got pb.MultiRequest
	errGot := proto.Unmarshal(msg, &got)
	if (errGot == nil) != (errRef == nil) {
		// Only a message missing a required field fails (a mutation no constructor builds).
		p.t.Fatalf("encoded request decodes with %v, reference marshals with %v", errGot, errRef)
	}
	if errGot != nil {
		return
	}
	if !proto.Equal(&got, &p.ref.req) {
		p.t.Fatalf("encoded request decodes to\n%v\nwant\n%v", &got, &p.ref.req)
	}
	if !bytes.Equal(msg, want) {
		p.t.Fatalf("encoded request\n% x\nproto.Marshal\n% x", msg, want)
	}
	if !bytes.Equal(cells, p.ref.cellblock) {
		p.t.Fatalf("cellblock\n% x\nwant\n% x", cells, p.ref.cellblock)
	}
}

// ok is v, for a test's fixed requests that must build.
func ok[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestEncodeMultiRequestShapes: requests of every kind of mutation and option, Gets, atomic
// region actions, empty and large region actions, encode as the reference builds them.
func TestEncodeMultiRequestShapes(t *testing.T) {
	tb, row := "t", []byte("r\x00,\xff")
	f, g := []byte("f"), []byte("g")
	muts := []Mutation{
		ok(NewPut(tb, row, Value(f, []byte("q"), []byte("v")))),
		ok(NewPut(tb, row, Value(f, nil, nil), Value(f, []byte{}, []byte{}), ValueAt(g, []byte("q"), 7, []byte("w")),
			Timestamp(42), WithDurability(SkipWAL), Attribute("a", []byte("x")), Attribute("b", nil))),
		ok(NewPut(tb, row, Value(f, []byte("q"), make([]byte, 300)), WithDurability(FsyncWAL), Priority(200))),
		ok(NewDelete(tb, row)),
		ok(NewDelete(tb, row, Timestamp(LatestTimestamp))),
		ok(NewDelete(tb, row, Timestamp(0), DeleteColumn(f, []byte("q")), DeleteColumnVersion(f, []byte("q"), 3),
			DeleteLatestVersion(g, nil), DeleteFamily(g), DeleteFamilyVersion(f, 9), WithDurability(AsyncWAL))),
		ok(NewAppend(tb, row, Value(f, []byte("q"), []byte("v")))),
		ok(NewAppend(tb, row, Value(f, []byte("a"), nil), Value(f, nil, []byte("b")), Value(g, []byte("c"), []byte("d")),
			Value(f, []byte("e"), []byte{}), TimeRange(1, 5), Attribute("x", []byte{}), WithDurability(SyncWAL))),
		ok(NewIncrement(tb, row, Amount(f, []byte("n"), 1))),
		ok(NewIncrement(tb, row, Amount(f, []byte("n"), -1), Amount(f, []byte("m"), 1<<40), Amount(g, nil, 0),
			TimeRange(0, LatestTimestamp), Timestamp(77))),
	}
	get := ok(NewGet(tb, row, Columns(f, []byte("q")), MaxVersions(3)))
	rm := ok(NewRowMutations([]Mutation{muts[0], muts[3]}))
	cam := ok(NewCheckAndMutate(IfNotExists(f, []byte("q")), muts[1]))
	camRows := ok(NewCheckAndMutateRow(IfNotExists(f, []byte("q")), rm))

	t.Run("each", func(t *testing.T) {
		for i, m := range muts {
			for _, index := range []uint32{0, 1, 127, 128, 1 << 31} {
				p := multiPair{t: t}
				p.region([]byte(fmt.Sprintf("region-%d", i)))
				p.add(m.batchable(), index)
				p.check()
			}
		}
	})
	t.Run("mixed", func(t *testing.T) {
		p := multiPair{t: t}
		p.add(muts[0].batchable(), 0) // before Region: refused by both
		p.region([]byte("empty"))
		p.region(nil)
		for i, m := range muts {
			p.add(m.batchable(), uint32(i))
		}
		p.region([]byte("b"))
		p.addAtomic(camW(cam), []byte("b")) // before the region's actions: first
		p.add(get.batchable(), 20)
		p.add(muts[1].batchable(), 21)
		p.addAtomic(rmW(rm), []byte("b")) // after them: after the region action
		p.add(muts[2].batchable(), 22)    // into the region action before it
		p.add(camW(cam), 23)              // an atomic call's Action fails: left out
		p.addAtomic(camW(camRows), []byte("b"))
		p.region([]byte("c"))
		p.add(get.batchable(), 30)
		p.check()
	})
	t.Run("large", func(t *testing.T) {
		// Region actions whose lengths take 1 to 3 bytes of varint, and a long region name.
		for _, n := range []int{1, 2, 100, 1000, 5000} {
			p := multiPair{t: t}
			p.m.Grow(n*200, n*40)
			p.region(bytes.Repeat([]byte("n"), 200))
			p.region([]byte("r1"))
			for i := range n {
				p.add(muts[i%len(muts)].batchable(), uint32(i))
			}
			p.region([]byte("r2"))
			for i := range n {
				p.add(muts[0].batchable(), uint32(n+i))
			}
			p.check()
		}
	})
	t.Run("empty", func(t *testing.T) {
		p := multiPair{t: t}
		p.check()
		p = multiPair{t: t}
		p.region([]byte("r"))
		p.check()
	})
}

// fuzzBytes reads a fuzz input as a sequence of choices; past its end every choice is zero.
type fuzzBytes []byte

func (b *fuzzBytes) byte() byte {
	if len(*b) == 0 {
		return 0
	}
	c := (*b)[0]
	*b = (*b)[1:]
	return c
}

func (b *fuzzBytes) u64() uint64 {
	switch b.byte() % 4 {
	case 0:
		return uint64(b.byte())
	case 1:
		return LatestTimestamp
	case 2:
		return 0
	}
	var x [8]byte
	for i := range x {
		x[i] = b.byte()
	}
	return binary.BigEndian.Uint64(x[:])
}

// bytes returns nil, an empty slice, or up to 15 bytes of the input (often one of a few
// values, so that runs of one family happen).
func (b *fuzzBytes) bytes() []byte {
	c := b.byte()
	switch {
	case c < 32:
		return nil
	case c < 64:
		return []byte{}
	case c < 160:
		return []byte{'a' + c%3}
	}
	n := int(c % 16)
	out := make([]byte, 0, n)
	for range n {
		out = append(out, b.byte())
	}
	return out
}

// fuzzMutation builds a mutation of any shape from b: fields no constructor would combine
// (a Put with a nonce, cells of nil families) included.
func fuzzMutation(b *fuzzBytes) *mutation {
	m := &mutation{
		table: "t",
		row:   b.bytes(),
		mtype: pb.MutationProto_MutationType(b.byte() % 4),
	}
	m.timestamp = b.u64()
	m.durability = Durability(b.byte() % 5)
	if b.byte()%2 == 1 {
		m.nonce = b.u64()
	}
	if b.byte()%3 == 1 {
		m.timeRange = &pb.TimeRange{}
		if b.byte()%2 == 1 {
			m.timeRange.From = proto.Uint64(b.u64())
		}
		if b.byte()%2 == 1 {
			m.timeRange.To = proto.Uint64(b.u64())
		}
	}
	for range b.byte() % 3 {
		a := &pb.NameBytesPair{Value: b.bytes()}
		if b.byte()%8 != 0 {
			a.Name = proto.String(string(b.bytes()))
		}
		m.attributes = append(m.attributes, a)
	}
	for range b.byte() % 5 {
		c := wire.Cell{Row: m.row, Family: b.bytes(), Qualifier: b.bytes(), Timestamp: b.u64(), Type: b.byte(), Value: b.bytes()}
		if c.Family == nil && b.byte()%4 != 0 {
			c.Family = []byte("f")
		}
		m.cells = append(m.cells, c)
	}
	return m
}

// FuzzEncodeMultiRequest: a MultiRequest of mutations of any shape, Gets and atomic region
// actions, in any order and regions, encodes to proto.Marshal's bytes of the message the
// reference builds (so proto.Unmarshal gives a message proto.Equal to it), with the same
// cellblock.
func FuzzEncodeMultiRequest(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0})
	f.Add([]byte{0, 200, 'r', 'e', 'g', 1, 100, 2, 1, 5, 0, 0, 1, 1, 1, 2, 3, 4, 9, 9, 9, 1, 2, 3, 4})
	f.Add([]byte{0, 100, 1, 200, 3, 9, 9, 9, 2, 3, 7, 1, 1, 1, 2, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 3, 0, 2, 1})
	f.Add(bytes.Repeat([]byte{1, 170, 2, 3, 0, 1, 9, 1, 1, 4, 100, 100, 3, 7, 100}, 40))
	f.Add(bytes.Repeat([]byte{0, 161, 5, 1, 255, 1, 3, 2, 4, 8, 0, 5, 1, 1, 2, 3, 3, 90, 2, 1}, 30))
	get := ok(NewGet("t", []byte("r"), Columns([]byte("f"), []byte("q"))))
	put := ok(NewPut("t", []byte("r"), Value([]byte("f"), []byte("q"), []byte("v"))))
	del := ok(NewDelete("t", []byte("r")))
	rm := ok(NewRowMutations([]Mutation{put, del}))
	cam := ok(NewCheckAndMutate(IfNotExists([]byte("f"), []byte("q")), put))
	f.Fuzz(func(t *testing.T, in []byte) {
		b := fuzzBytes(in)
		p := multiPair{t: t}
		if c := b.byte(); c%2 == 1 {
			p.m.Grow(int(c)*100, int(c)*10)
		}
		for index := uint32(0); len(b) > 0; index++ {
			switch b.byte() % 5 {
			case 0:
				p.region(b.bytes())
			case 1, 2:
				p.add((*mutationCall)(fuzzMutation(&b)), index)
			case 3:
				p.add(get.batchable(), index)
			case 4:
				if b.byte()%2 == 0 {
					p.addAtomic(rmW(rm), []byte("reg"))
				} else {
					// A region name, never nil: marshalled at AddAtomic, a region action without
					// one fails there instead of failing the whole request.
					p.addAtomic(camW(cam), append([]byte{}, b.bytes()...))
				}
			}
		}
		p.check()
	})
}
