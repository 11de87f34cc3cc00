package hrpc

import (
	"bytes"
	"fmt"

	"github.com/go-hbase/hbase/pb"
)

// Option configures a request when it is built. Every option checks its arguments and whether
// it applies to the request type; NewGet, NewPut, NewScan... return the first error.
type Option func(o *options) error

// kind is the request type an options value is collected for; options use it to refuse being
// applied to the wrong request.
type kind uint8

const (
	kindGet kind = 1 << iota
	kindScan
	kindPut
	kindDelete
	kindAppend
	kindIncrement

	kindRead     = kindGet | kindScan
	kindMutation = kindPut | kindDelete | kindAppend | kindIncrement
	kindDelta    = kindAppend | kindIncrement
)

func (k kind) String() string {
	switch k {
	case kindGet:
		return "Get"
	case kindScan:
		return "Scan"
	case kindPut:
		return "Put"
	case kindDelete:
		return "Delete"
	case kindAppend:
		return "Append"
	case kindIncrement:
		return "Increment"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// column is one family of a Get or Scan with the qualifiers asked for; no qualifiers means the
// whole family.
type column struct {
	family     []byte
	qualifiers [][]byte
}

type attribute struct {
	name  string
	value []byte
}

// options collects every option; each request copies out the fields that apply to it.
type options struct {
	kind kind

	// Get and Scan
	columns     []column
	filter      *pb.Filter
	maxVersions uint32
	noCache     bool
	storeLimit  uint32 // 0: unset
	storeOffset uint32

	// Get, Scan, Append, Increment
	timeRange *pb.TimeRange

	// Get
	existsOnly bool

	// Scan
	startRow, stopRow []byte
	prefix            []byte
	hasPrefix         bool
	reversed          bool
	limit             uint32
	numberOfRows      uint32
	maxResultSize     uint64
	allowPartials     bool
	batchSize         uint32

	// mutations
	cells      []Cell
	timestamp  uint64
	durability Durability

	// all
	attributes []attribute
}

func (o *options) allow(name string, kinds kind) error {
	if o.kind&kinds == 0 {
		return fmt.Errorf("%w: %s on a %s", ErrNotApplicable, name, o.kind)
	}
	return nil
}

func applyOptions(o *options, opts []Option) error {
	for _, opt := range opts {
		if opt == nil {
			return invalid("nil option")
		}
		if err := opt(o); err != nil {
			return err
		}
	}
	return nil
}

// addColumn merges family (and qualifiers) into o.columns, keeping the user's order. As in the
// Java client, asking for columns of a family narrows an earlier request for the whole family.
func (o *options) addColumn(family []byte, qualifiers [][]byte, wholeFamily bool) {
	for i := range o.columns {
		c := &o.columns[i]
		if !bytes.Equal(c.family, family) {
			continue
		}
		if wholeFamily {
			c.qualifiers = nil
		} else {
			c.qualifiers = append(c.qualifiers, qualifiers...)
		}
		return
	}
	c := column{family: family}
	if !wholeFamily {
		c.qualifiers = append([][]byte(nil), qualifiers...)
	}
	o.columns = append(o.columns, c)
}

// Families restricts a Get or Scan to whole column families.
func Families(families ...[]byte) Option {
	return func(o *options) error {
		if err := o.allow("Families", kindRead); err != nil {
			return err
		}
		if len(families) == 0 {
			return invalid("Families without a family")
		}
		for _, f := range families {
			if err := checkFamily(f); err != nil {
				return err
			}
			o.addColumn(f, nil, true)
		}
		return nil
	}
}

// Columns restricts a Get or Scan to the given qualifiers of family.
func Columns(family []byte, qualifiers ...[]byte) Option {
	return func(o *options) error {
		if err := o.allow("Columns", kindRead); err != nil {
			return err
		}
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
		o.addColumn(family, qualifiers, false)
		return nil
	}
}

// TimeRange restricts a Get or Scan to cells with from <= timestamp < to. On an Increment or
// Append it restricts which existing cell the delta is applied to.
func TimeRange(from, to uint64) Option {
	return func(o *options) error {
		if err := o.allow("TimeRange", kindRead|kindDelta); err != nil {
			return err
		}
		if from > LatestTimestamp || to > LatestTimestamp {
			return invalid("TimeRange(%d, %d) beyond the largest timestamp %d", from, to, LatestTimestamp)
		}
		if from > to {
			return invalid("TimeRange from %d after to %d", from, to)
		}
		o.timeRange = &pb.TimeRange{From: &from, To: &to}
		return nil
	}
}

// MaxVersions is how many versions of each column a Get or Scan returns (default 1).
func MaxVersions(n int) Option {
	return func(o *options) error {
		if err := o.allow("MaxVersions", kindRead); err != nil {
			return err
		}
		if n < 1 || n > 1<<31-1 {
			return invalid("MaxVersions(%d): must be at least 1", n)
		}
		o.maxVersions = uint32(n)
		return nil
	}
}

// WithFilter applies a server-side filter to a Get or Scan. Combine several with NewFilterList.
func WithFilter(f Filter) Option {
	return func(o *options) error {
		if err := o.allow("WithFilter", kindRead); err != nil {
			return err
		}
		if f == nil {
			return invalid("nil filter")
		}
		p, err := f.ToProto()
		if err != nil {
			return err
		}
		o.filter = p
		return nil
	}
}

// NoBlockCache tells the server not to keep the blocks this Get or Scan reads in its block
// cache (for one-off full scans).
func NoBlockCache() Option {
	return func(o *options) error {
		if err := o.allow("NoBlockCache", kindRead); err != nil {
			return err
		}
		o.noCache = true
		return nil
	}
}

// MaxResultsPerColumnFamily caps the cells returned per row and column family.
func MaxResultsPerColumnFamily(n int) Option {
	return func(o *options) error {
		if err := o.allow("MaxResultsPerColumnFamily", kindRead); err != nil {
			return err
		}
		if n < 1 || n > 1<<31-1 {
			return invalid("MaxResultsPerColumnFamily(%d): must be at least 1", n)
		}
		o.storeLimit = uint32(n)
		return nil
	}
}

// ResultOffsetPerColumnFamily skips the first n cells of each row and column family.
func ResultOffsetPerColumnFamily(n int) Option {
	return func(o *options) error {
		if err := o.allow("ResultOffsetPerColumnFamily", kindRead); err != nil {
			return err
		}
		if n < 0 || n > 1<<31-1 {
			return invalid("ResultOffsetPerColumnFamily(%d): must not be negative", n)
		}
		o.storeOffset = uint32(n)
		return nil
	}
}

// Attribute sets a request attribute (Operation.setAttribute in the Java client).
func Attribute(name string, value []byte) Option {
	return func(o *options) error {
		if name == "" {
			return invalid("empty attribute name")
		}
		o.attributes = append(o.attributes, attribute{name: name, value: value})
		return nil
	}
}

func checkFamily(f []byte) error {
	if len(f) == 0 {
		return invalid("empty column family")
	}
	if len(f) > maxFamLen {
		return invalid("column family of %d bytes is longer than %d", len(f), maxFamLen)
	}
	return nil
}

func checkTable(table []byte) error {
	if len(table) == 0 {
		return ErrEmptyTable
	}
	return nil
}

// checkRow checks the row of a Get or mutation: HBase refuses empty rows (Mutation.checkRow).
func checkRow(row []byte) error {
	if len(row) == 0 {
		return ErrNilRow
	}
	return checkRowLen(row)
}

func checkRowLen(row []byte) error {
	if len(row) > maxRowLen {
		return invalid("row of %d bytes is longer than %d", len(row), maxRowLen)
	}
	return nil
}

func attributesProto(attrs []attribute) []*pb.NameBytesPair {
	if len(attrs) == 0 {
		return nil
	}
	out := make([]*pb.NameBytesPair, len(attrs))
	for i := range attrs {
		out[i] = &pb.NameBytesPair{Name: &attrs[i].name, Value: attrs[i].value}
	}
	return out
}

func columnsProto(cols []column) []*pb.Column {
	if len(cols) == 0 {
		return nil
	}
	out := make([]*pb.Column, len(cols))
	for i := range cols {
		out[i] = &pb.Column{Family: cols[i].family, Qualifier: cols[i].qualifiers}
	}
	return out
}

func regionSpecifier(regionName []byte) *pb.RegionSpecifier {
	return &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: regionName}
}
