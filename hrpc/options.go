package hrpc

import (
	"bytes"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// Options are typed by the request they configure, as grpc's call options are: NewGet takes
// GetOptions, NewScan ScanOptions, NewPut PutOptions and so on. An option that applies to
// several kinds of request (Families to Gets and Scans, Timestamp to every mutation) returns a
// type that implements each of their interfaces, so passing an option to a request it does not
// apply to (MaxVersions to a Put) does not compile. Arguments are still checked when the
// request is built, and the constructor returns the first bad one.
//
// The option types are functions; the interfaces only mark which requests each applies to,
// and the constructors call the function itself (funcOf), not an interface method, so that
// an option value built in the call to the constructor stays on the stack.
type (
	// GetOption configures a Get.
	GetOption interface{ getOption() }
	// ScanOption configures a Scan.
	ScanOption interface{ scanOption() }
	// PutOption configures a Put.
	PutOption interface{ putOption() }
	// DeleteOption configures a Delete.
	DeleteOption interface{ deleteOption() }
	// AppendOption configures an Append.
	AppendOption interface{ appendOption() }
	// IncrementOption configures an Increment.
	IncrementOption interface{ incrementOption() }
	// CheckAndMutateOption configures a CheckAndMutate.
	CheckAndMutateOption interface{ checkAndMutateOption() }
	// RowMutationsOption configures a RowMutations.
	RowMutationsOption interface{ rowMutationsOption() }
)

// optionFunc is what every option does to the options being collected.
type optionFunc func(o *options) error

// ReadOption applies to Gets and Scans.
type ReadOption func(*options) error

func (ReadOption) getOption()  {}
func (ReadOption) scanOption() {}

// TimeRangeOption applies to Gets, Scans, Appends and Increments.
type TimeRangeOption func(*options) error

func (TimeRangeOption) getOption()       {}
func (TimeRangeOption) scanOption()      {}
func (TimeRangeOption) appendOption()    {}
func (TimeRangeOption) incrementOption() {}

// MutationOption applies to Puts, Deletes, Appends and Increments.
type MutationOption func(*options) error

func (MutationOption) putOption()       {}
func (MutationOption) deleteOption()    {}
func (MutationOption) appendOption()    {}
func (MutationOption) incrementOption() {}

// ValueOption applies to Puts and Appends.
type ValueOption func(*options) error

func (ValueOption) putOption()    {}
func (ValueOption) appendOption() {}

// RequestOption applies to every request: what the client does with its RPCs (MaxAttempts)
// and what their header carries (Priority, RequestAttribute).
type RequestOption func(*options) error

func (RequestOption) getOption()            {}
func (RequestOption) scanOption()           {}
func (RequestOption) putOption()            {}
func (RequestOption) deleteOption()         {}
func (RequestOption) appendOption()         {}
func (RequestOption) incrementOption()      {}
func (RequestOption) checkAndMutateOption() {}
func (RequestOption) rowMutationsOption()   {}

// AttributeOption applies to Gets, Scans and the four mutations: the operations that carry
// attributes of their own. A CheckAndMutate's or RowMutations' operations are its mutations.
type AttributeOption func(*options) error

func (AttributeOption) getOption()       {}
func (AttributeOption) scanOption()      {}
func (AttributeOption) putOption()       {}
func (AttributeOption) deleteOption()    {}
func (AttributeOption) appendOption()    {}
func (AttributeOption) incrementOption() {}

// Options of one kind of request only.
type (
	getOnly       func(*options) error
	scanOnly      func(*options) error
	putOnly       func(*options) error
	deleteOnly    func(*options) error
	incrementOnly func(*options) error
)

func (getOnly) getOption()             {}
func (scanOnly) scanOption()           {}
func (putOnly) putOption()             {}
func (deleteOnly) deleteOption()       {}
func (incrementOnly) incrementOption() {}

// funcOf returns what an option does, nil for a nil option.
func funcOf(opt any) optionFunc {
	switch f := opt.(type) {
	case ReadOption:
		return optionFunc(f)
	case TimeRangeOption:
		return optionFunc(f)
	case MutationOption:
		return optionFunc(f)
	case ValueOption:
		return optionFunc(f)
	case RequestOption:
		return optionFunc(f)
	case AttributeOption:
		return optionFunc(f)
	case CellOption:
		return optionFunc(f)
	case getOnly:
		return optionFunc(f)
	case scanOnly:
		return optionFunc(f)
	case putOnly:
		return optionFunc(f)
	case deleteOnly:
		return optionFunc(f)
	case incrementOnly:
		return optionFunc(f)
	}
	return nil
}

// applyOptions applies opts in order and returns the first error.
func applyOptions[O any](o *options, opts []O) error {
	for _, opt := range opts {
		f := funcOf(any(opt))
		if f == nil {
			return invalid("nil option")
		}
		if err := f(o); err != nil {
			return err
		}
	}
	return nil
}

// requestOptions applies the options of a request built of mutations (CheckAndMutate,
// RowMutations), which take only RequestOptions, and returns its MaxAttempts and header. It
// allocates only when there are options: the options escape to the option functions.
func requestOptions[O any](opts []O) (maxAttempts int, hdr *callHeader, err error) {
	if len(opts) == 0 {
		return 0, nil, nil
	}
	o := new(options)
	if err := applyOptions(o, opts); err != nil {
		return 0, nil, err
	}
	return o.maxAttempts, o.hdr, nil
}

// options collects every option. Its common and mutation fields are few, so that a mutation
// can hold them (mutation embeds options) and its options be applied in place: options reach
// the option functions through a pointer that escapes (each is called indirectly), and a
// separate options struct would cost a Put an allocation of its own. What only Gets and Scans
// use is in readOptions, behind rd.
type options struct {
	// mutations
	cells      []wire.Cell
	timestamp  uint64
	durability Durability

	// all
	maxAttempts int
	attributes  []*pb.NameBytesPair // Attribute, as sent
	hdr         *callHeader         // Priority, RequestAttribute; nil: none

	// Get, Scan, Append, Increment
	timeRange *pb.TimeRange

	// rd is set by NewGet and NewScan; for a mutation, read() allocates one only when an option
	// of a Get or Scan was converted to a mutation's option type, and the mutation drops it.
	rd *readOptions
}

// readOptions are the options of Gets and Scans.
type readOptions struct {
	// Get and Scan. columns are the families asked for, each with the qualifiers asked for
	// (none: the whole family), built once: protobuf messages may be marshalled concurrently.
	columns     []*pb.Column
	filter      *pb.Filter
	maxVersions uint32
	noCache     bool
	storeLimit  uint32 // 0: unset
	storeOffset uint32
	consistency ConsistencyLevel

	// Get
	existsOnly bool

	// sc is set by NewScan; for a Get, scan() allocates one only when an option of a Scan was
	// converted to a Get's option type, and the Get drops it.
	sc *scanOptions
}

// scanOptions are the options of Scans only.
type scanOptions struct {
	startRow, stopRow []byte
	prefix            []byte
	hasPrefix         bool
	reversed          bool
	limit             uint32
	numberOfRows      uint32
	maxResultSize     uint64
	allowPartials     bool
	batchSize         uint32
	trackMetrics      bool
	cursorResults     bool
}

// scanBuild is what NewScan collects its options in: one allocation.
type scanBuild struct {
	options
	read readOptions
	scan scanOptions
}

func newScanBuild() *options {
	b := new(scanBuild)
	b.rd, b.read.sc = &b.read, &b.scan
	return &b.options
}

// read returns the options of Gets and Scans.
func (o *options) read() *readOptions {
	if o.rd == nil {
		o.rd = new(readOptions)
	}
	return o.rd
}

// scan returns the options of Scans.
func (o *options) scan() *scanOptions {
	r := o.read()
	if r.sc == nil {
		r.sc = new(scanOptions)
	}
	return r.sc
}

// addColumn merges family (and qualifiers) into o.columns, keeping the user's order. As in the
// Java client, asking for columns of a family narrows an earlier request for the whole family.
func (o *readOptions) addColumn(family []byte, qualifiers [][]byte, wholeFamily bool) {
	for _, c := range o.columns {
		if !bytes.Equal(c.Family, family) {
			continue
		}
		if wholeFamily {
			c.Qualifier = nil
		} else {
			c.Qualifier = append(c.Qualifier, qualifiers...)
		}
		return
	}
	c := &pb.Column{Family: family}
	if !wholeFamily {
		c.Qualifier = append([][]byte(nil), qualifiers...)
	}
	o.columns = append(o.columns, c)
}

// Families restricts a Get or Scan to whole column families.
func Families(families ...[]byte) ReadOption {
	return ReadOption(func(o *options) error {
		if len(families) == 0 {
			return invalid("Families without a family")
		}
		for _, f := range families {
			if err := checkFamily(f); err != nil {
				return err
			}
			o.read().addColumn(f, nil, true)
		}
		return nil
	})
}

// Columns restricts a Get or Scan to the given qualifiers of family.
func Columns(family []byte, qualifiers ...[]byte) ReadOption {
	return ReadOption(func(o *options) error {
		if err := checkFamily(family); err != nil {
			return err
		}
		if len(qualifiers) == 0 {
			return invalid("Columns without a qualifier (use Families for a whole family)")
		}
		for _, q := range qualifiers {
			if q == nil {
				return invalid("nil qualifier (use []byte{} for the empty qualifier)")
			}
		}
		o.read().addColumn(family, qualifiers, false)
		return nil
	})
}

// TimeRange restricts a Get or Scan to cells with from <= timestamp < to. On an Increment or
// Append it restricts which existing cell the delta is applied to.
func TimeRange(from, to uint64) TimeRangeOption {
	return TimeRangeOption(func(o *options) error {
		if from > LatestTimestamp || to > LatestTimestamp {
			return invalid("TimeRange(%d, %d) beyond the largest timestamp %d", from, to, LatestTimestamp)
		}
		if from > to {
			return invalid("TimeRange from %d after to %d", from, to)
		}
		o.timeRange = &pb.TimeRange{From: &from, To: &to}
		return nil
	})
}

// MaxVersions is how many versions of each column a Get or Scan returns (default 1).
func MaxVersions(n int) ReadOption {
	return ReadOption(func(o *options) error {
		if n < 1 || n > 1<<31-1 {
			return invalid("MaxVersions(%d): must be at least 1", n)
		}
		o.read().maxVersions = uint32(n)
		return nil
	})
}

// WithFilter applies a server-side filter to a Get or Scan. Combine several with NewFilterList.
func WithFilter(f Filter) ReadOption {
	return ReadOption(func(o *options) error {
		if f == nil {
			return invalid("nil filter")
		}
		p, err := f.toProto()
		if err != nil {
			return err
		}
		o.read().filter = p
		return nil
	})
}

// NoBlockCache tells the server not to keep the blocks this Get or Scan reads in its block
// cache (for one-off full scans).
func NoBlockCache() ReadOption {
	return ReadOption(func(o *options) error {
		o.read().noCache = true
		return nil
	})
}

// MaxResultsPerColumnFamily caps the cells returned per row and column family.
func MaxResultsPerColumnFamily(n int) ReadOption {
	return ReadOption(func(o *options) error {
		if n < 1 || n > 1<<31-1 {
			return invalid("MaxResultsPerColumnFamily(%d): must be at least 1", n)
		}
		o.read().storeLimit = uint32(n)
		return nil
	})
}

// ResultOffsetPerColumnFamily skips the first n cells of each row and column family.
func ResultOffsetPerColumnFamily(n int) ReadOption {
	return ReadOption(func(o *options) error {
		if n < 0 || n > 1<<31-1 {
			return invalid("ResultOffsetPerColumnFamily(%d): must not be negative", n)
		}
		o.read().storeOffset = uint32(n)
		return nil
	})
}

// Attribute sets an attribute of the operation (Operation.setAttribute in the Java client),
// sent inside the Get, Scan or mutation itself. HBase 2.6's request attributes, which travel
// in the RPC's header and which server-side code reads from the call, are RequestAttribute.
// A CheckAndMutate or RowMutations has no attributes of its own: set them on its mutations.
func Attribute(name string, value []byte) AttributeOption {
	return AttributeOption(func(o *options) error {
		if name == "" {
			return invalid("empty attribute name")
		}
		o.attributes = append(o.attributes, &pb.NameBytesPair{Name: proto.String(name), Value: value})
		return nil
	})
}

func checkFamily(f []byte) error {
	if len(f) == 0 {
		return invalid("empty column family")
	}
	if len(f) > wire.MaxFamilyLen {
		return invalid("column family of %d bytes is longer than %d", len(f), wire.MaxFamilyLen)
	}
	return nil
}

func checkTable(table string) error {
	if len(table) == 0 {
		return errEmptyTable
	}
	return nil
}

// checkRow checks the row of a Get or mutation: HBase refuses empty rows (Mutation.checkRow).
func checkRow(row []byte) error {
	if len(row) == 0 {
		return errNilRow
	}
	return checkRowLen(row)
}

func checkRowLen(row []byte) error {
	if len(row) > wire.MaxRowLen {
		return invalid("row of %d bytes is longer than %d", len(row), wire.MaxRowLen)
	}
	return nil
}

// MaxAttempts caps how many times the client sends the request (n ≥ 1; 1 sends it once and
// never retries), overriding the client's hbase.WithMaxAttempts for this request. The call's
// context still bounds it: whichever ends first ends the call. Without it the client's
// setting applies (by default: retry until the context ends).
func MaxAttempts(n int) RequestOption {
	return RequestOption(func(o *options) error {
		if n < 1 {
			return invalid("MaxAttempts below 1")
		}
		o.maxAttempts = n
		return nil
	})
}
