package hrpc

import (
	"strings"
	"testing"

	"github.com/go-hbase/hbase/internal/pb"
)

// headerString prints a header as the engine sends it: "priority|name=value;...".
func headerString(priority uint32, attrs []*pb.NameBytesPair) string {
	var b strings.Builder
	b.WriteString(string(rune('0' + priority)))
	b.WriteByte('|')
	for _, a := range attrs {
		b.WriteString(a.GetName() + "=" + string(a.GetValue()) + ";")
	}
	return b.String()
}

// TestAtomicCallHeaders: a CheckAndMutate and RowMutations carry the priority and request
// attributes of their own options and of their mutations: the highest priority, each name
// once with the first value (their own, then the mutations' in order). Their MaxAttempts is
// their own only. The mutations' headers are not changed, and one shared when it is the only
// one.
func TestAtomicCallHeaders(t *testing.T) {
	f := []byte("f")
	p1 := ok(NewPut("t", []byte("r"), Value(f, f, f), Priority(2), RequestAttribute("a", []byte("p1")),
		RequestAttribute("b", []byte("p1")), MaxAttempts(7)))
	p2 := ok(NewPut("t", []byte("r"), Value(f, f, f), Priority(4), RequestAttribute("b", []byte("p2")),
		RequestAttribute("c", []byte("p2"))))
	plain := ok(NewDelete("t", []byte("r")))
	cond := IfNotExists(f, f)
	type call interface {
		Header() (uint32, []*pb.NameBytesPair)
		MaxAttempts() int
	}
	header := func(c call) string { return headerString(c.Header()) }
	cases := []struct {
		name        string
		call        call
		want        string
		maxAttempts int
	}{
		{"CheckAndMutate of a plain mutation", (*checkAndMutateCall)(ok(NewCheckAndMutate(cond, plain))), "0|", 0},
		{"CheckAndMutate, options of its mutation", (*checkAndMutateCall)(ok(NewCheckAndMutate(cond, p1))), "2|a=p1;b=p1;", 0},
		{"CheckAndMutate, its own options", (*checkAndMutateCall)(ok(NewCheckAndMutate(cond, plain,
			Priority(3), RequestAttribute("x", nil), MaxAttempts(2)))), "3|x=;", 2},
		{"CheckAndMutate, both", (*checkAndMutateCall)(ok(NewCheckAndMutate(cond, p1,
			Priority(1), RequestAttribute("b", []byte("own"))))), "2|b=own;a=p1;", 0},
		{"RowMutations, options of its mutations", (*rowMutationsCall)(ok(NewRowMutations([]Mutation{plain, p1, p2}))),
			"4|a=p1;b=p1;c=p2;", 0},
		{"RowMutations, both", (*rowMutationsCall)(ok(NewRowMutations([]Mutation{p2, plain, p1},
			RequestAttribute("c", []byte("own")), Priority(3), MaxAttempts(1)))), "4|c=own;b=p2;a=p1;", 1},
		{"CheckAndMutate of RowMutations", (*checkAndMutateCall)(ok(NewCheckAndMutateRow(cond,
			ok(NewRowMutations([]Mutation{p1}, MaxAttempts(3), RequestAttribute("r", nil))),
			Priority(5), RequestAttribute("a", []byte("own"))))), "5|a=own;r=;b=p1;", 0},
	}
	for _, c := range cases {
		if got := header(c.call); got != c.want {
			t.Errorf("%s: header %q; want %q", c.name, got, c.want)
		}
		if got := c.call.MaxAttempts(); got != c.maxAttempts {
			t.Errorf("%s: MaxAttempts %d; want %d", c.name, got, c.maxAttempts)
		}
	}
	if got := header(mutW(p1)); got != "2|a=p1;b=p1;" {
		t.Errorf("the Put's own header became %q", got)
	}
	if got := header(mutW(p2)); got != "4|b=p2;c=p2;" {
		t.Errorf("the Put's own header became %q", got)
	}
	if cam := ok(NewCheckAndMutate(cond, p1)); cam.hdr != p1.hdr {
		t.Errorf("CheckAndMutate copied the only header it has")
	}
}

// TestAtomicCallAllocations: header options on the mutations cost a CheckAndMutate or
// RowMutations nothing (the header is shared); their own options cost the options they are
// applied in and the header.
func TestAtomicCallAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	f := []byte("f")
	plain := ok(NewPut("t", []byte("r"), Value(f, f, f)))
	withHeader := ok(NewPut("t", []byte("r"), Value(f, f, f), Priority(3), RequestAttribute("a", nil)))
	cond := IfNotExists(f, f)
	muts := []Mutation{plain, plain}
	cam := testing.AllocsPerRun(100, func() { _, _ = NewCheckAndMutate(cond, plain) })
	rm := testing.AllocsPerRun(100, func() { _, _ = NewRowMutations(muts) })
	cases := []struct {
		name  string
		build func()
		want  float64
	}{
		{"CheckAndMutate, header options on its mutation", func() { _, _ = NewCheckAndMutate(cond, withHeader) }, cam},
		{"CheckAndMutate, MaxAttempts", func() { _, _ = NewCheckAndMutate(cond, plain, MaxAttempts(2)) }, cam + 1},
		{"CheckAndMutate, Priority", func() { _, _ = NewCheckAndMutate(cond, plain, Priority(2)) }, cam + 2},
		{"RowMutations, header options on a mutation", func() { _, _ = NewRowMutations([]Mutation{withHeader, plain}) }, rm},
		{"RowMutations, Priority", func() { _, _ = NewRowMutations(muts, Priority(2)) }, rm + 2},
	}
	for _, c := range cases {
		if got := testing.AllocsPerRun(100, c.build); got != c.want {
			t.Errorf("%s: %v allocations, want %v", c.name, got, c.want)
		}
	}
}
