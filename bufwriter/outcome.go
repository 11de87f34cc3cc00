package bufwriter

import (
	"errors"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

// Outcome is what became of one mutation a Writer accepted, with what ties it to the caller's
// data: the mutation itself, its table, row and kind (Table, Row, Kind) and the tag it was
// written with (WriteTagged, WriteBatchTagged; nil after Write).
//
// Err is nil when the mutation was applied (Result holds an Append's or Increment's new
// values); otherwise an *hberr.OpError naming the mutation's table and row, which wraps
// hberr.ErrIndeterminate when the mutation may or may not have been applied.
type Outcome struct {
	Mutation hrpc.Mutation
	Tag      any
	Result   *hrpc.Result
	Err      error
}

// Applied reports whether the server applied the mutation.
func (o Outcome) Applied() bool { return o.Err == nil }

// Indeterminate reports whether the mutation may or may not have been applied.
func (o Outcome) Indeterminate() bool { return errors.Is(o.Err, hberr.ErrIndeterminate) }

// Table is the mutation's table ("" in an Outcome without a mutation).
func (o Outcome) Table() string {
	if o.Mutation == nil {
		return ""
	}
	return o.Mutation.Table()
}

// Row is the mutation's row, the slice it was built with: do not modify it (nil in an
// Outcome without a mutation).
func (o Outcome) Row() []byte {
	if o.Mutation == nil {
		return nil
	}
	return o.Mutation.Row()
}

// Kind is the mutation's kind: KindPut, KindDelete, KindAppend or KindIncrement.
func (o Outcome) Kind() Kind { return kindOf(o.Mutation) }

// Kind is the kind of a mutation a Writer takes.
type Kind uint8

// The kinds of mutations; the zero Kind is none (no mutation).
const (
	KindPut Kind = iota + 1
	KindDelete
	KindAppend
	KindIncrement
)

// kindOf returns the kind of m, 0 for nil.
func kindOf(m hrpc.Mutation) Kind {
	switch m.(type) {
	case *hrpc.Put:
		return KindPut
	case *hrpc.Delete:
		return KindDelete
	case *hrpc.Append:
		return KindAppend
	case *hrpc.Increment:
		return KindIncrement
	}
	return 0
}

// String is the kind's name as an *hberr.OpError's Op names it: "Put", "Delete", "Append",
// "Increment"; "" for the zero Kind.
func (k Kind) String() string {
	switch k {
	case KindPut:
		return "Put"
	case KindDelete:
		return "Delete"
	case KindAppend:
		return "Append"
	case KindIncrement:
		return "Increment"
	}
	return ""
}
