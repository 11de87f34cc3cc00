package hrpc

import (
	"bytes"
	"time"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// Cell-level security: what the cells a mutation writes carry (a time to live, an access
// control list, a visibility expression) and the labels a read is authorized for. They travel
// as attributes of the operation, as the Java client's Mutation.setTTL, setACL,
// setCellVisibility and Query.setAuthorizations send them.
//
// The TTL needs no coprocessor. A cell ACL has an effect only where the cluster loads
// HBase's AccessController, visibility expressions and authorizations only where it loads
// its VisibilityController: a cluster without them stores the cells and ignores the
// attribute. fakehbase refuses all four (hberr.ErrNotSupported).

// CellOption applies to Puts, Appends and Increments: what the cells they write carry. (A
// Delete writes no cells a TTL or an ACL could apply to; HBase refuses both on Deletes.)
type CellOption func(*options) error

func (CellOption) putOption()       {}
func (CellOption) appendOption()    {}
func (CellOption) incrementOption() {}

// CellTTL gives the cells the mutation writes a time to live (Mutation.setTTL): each cell
// expires ttl after its timestamp, in whole milliseconds (rounded down), whatever its
// family's TTL; a family TTL that is shorter still applies. Expired cells are no longer read,
// and go at the next major compaction. ttl must be at least a millisecond.
func CellTTL(ttl time.Duration) CellOption {
	return CellOption(func(o *options) error {
		ms := ttl.Milliseconds()
		if ms < 1 {
			return invalid("CellTTL(%v): want at least 1ms", ttl)
		}
		o.attributes = wire.SetAttribute(o.attributes, wire.AttrTTL, wire.TTLValue(ms))
		return nil
	})
}

// CellAccess is what a cell ACL lets a user or group do with the cells it is on: the two
// actions HBase's AccessController checks per cell, combined with |.
type CellAccess uint8

// Cell access rights.
const (
	CellRead  CellAccess = 1 << iota // READ: the user may read the cell
	CellWrite                        // WRITE: the user may overwrite or delete the cell
)

// actions returns the action names of a, or nil when it is empty or has unknown bits.
func (a CellAccess) actions() []string {
	if a == 0 || a&^(CellRead|CellWrite) != 0 {
		return nil
	}
	var out []string
	if a&CellRead != 0 {
		out = append(out, "READ")
	}
	if a&CellWrite != 0 {
		out = append(out, "WRITE")
	}
	return out
}

// CellACL grants user (or a group, "@name") access to the cells the mutation writes
// (Mutation.setACL). HBase's AccessController consults a cell's ACL when the table's,
// family's and column's permissions refuse the operation, on tables whose regions run with
// hbase.security.access.early_out false (a table attribute, hrpc.TableAttribute, or the
// servers' setting): a user without READ on the table then reads exactly the cells whose ACL
// grants it CellRead, and overwrites or deletes those that grant it CellWrite. With the
// default (true) the refusal comes first and cell ACLs are not read. Several CellACLs
// accumulate, one entry per user; a later one for the same user replaces the earlier. The
// cells' new ACL replaces that of the cells they overwrite.
func CellACL(user string, access CellAccess) CellOption {
	return CellOption(func(o *options) error {
		acts := access.actions()
		if acts == nil {
			return invalid("CellACL(%q, %d): want CellRead, CellWrite or both", user, access)
		}
		v, err := wire.CellACLValue(attributeValue(o.attributes, wire.AttrACL), user, acts)
		if err != nil {
			return err
		}
		o.attributes = wire.SetAttribute(o.attributes, wire.AttrACL, v)
		return nil
	})
}

// CellVisibility labels the cells a Put, Append or Increment writes with a visibility
// expression (Mutation.setCellVisibility): only readers authorized for labels that satisfy it
// see them. On a Delete it deletes only the cells of that expression. Labels are joined by &
// (and) and | (or), evaluated left to right, grouped by parentheses and negated by !: "secret
// | (ops & !intern)". A label of other characters than letters, digits and "_-:./" is
// quoted (QuoteLabel). The expression is checked here (hberr.ErrVisibilityExpression); a
// label the cluster has not defined fails the mutation (hberr.ErrVisibilityLabel).
func CellVisibility(expression string) MutationOption {
	return MutationOption(func(o *options) error {
		v, err := wire.VisibilityValue(expression)
		if err != nil {
			return err
		}
		o.attributes = wire.SetAttribute(o.attributes, wire.AttrVisibility, v)
		return nil
	})
}

// Authorizations sets the visibility labels a Get or Scan reads with
// (Query.setAuthorizations): it sees the cells whose expressions those labels satisfy, and
// the cells without one. The server keeps only the labels the user is authorized for; without
// the option, or with no label (HBase's default scan label generators treat both alike), it
// uses all of them.
func Authorizations(labels ...string) ReadOption {
	return ReadOption(func(o *options) error {
		v, err := wire.AuthorizationsValue(labels)
		if err != nil {
			return err
		}
		o.attributes = wire.SetAttribute(o.attributes, wire.AttrVisibility, v)
		return nil
	})
}

// QuoteLabel quotes a visibility label for an expression (CellVisibility.quote): labels of
// characters other than letters, digits and "_-:./" must be quoted.
func QuoteLabel(label string) string { return wire.QuoteLabel(label) }

// attributeValue is the value of attribute name in attrs, nil when there is none.
func attributeValue(attrs []*pb.NameBytesPair, name string) []byte {
	for _, a := range attrs {
		if a.GetName() == name {
			return bytes.Clone(a.GetValue())
		}
	}
	return nil
}
