package hberr

import (
	"errors"
	"strings"
)

// Sentinels of the operators' admin calls and of the refusals HBase says only in an
// exception's message (package admin). Each also wraps ErrDoNotRetry when it comes from the
// server.
var (
	// ErrFamilyExists: the table has a column family of that name already (AddFamily;
	// InvalidFamilyOperationException "... already exists so cannot be added"). A family
	// that does not exist (ModifyFamily, DeleteFamily) is ErrNoSuchFamily.
	ErrFamilyExists = errors.New("column family already exists")
	// ErrLastFamily: the family is the table's only one, and a table keeps at least one
	// (DeleteFamily; InvalidFamilyOperationException "... is the only column family").
	ErrLastFamily = errors.New("the table's only column family")
	// ErrNamespaceReserved: the namespace is HBase's own ("default", "hbase") and cannot be
	// deleted (ConstraintException "Reserved namespace ... cannot be removed").
	ErrNamespaceReserved = errors.New("reserved namespace")
	// ErrMergeRefused: the master refused to merge the regions (MergeRegionException): not
	// adjacent without forcible (then also ErrRegionsNotAdjacent), one region twice, regions
	// of different tables, a region not open, a secondary replica.
	ErrMergeRefused = errors.New("merge refused")
	// ErrRegionsNotAdjacent: the regions to merge are neither adjacent nor overlapping, and
	// the merge was not forcible.
	ErrRegionsNotAdjacent = errors.New("regions not adjacent")
	// ErrSwitchedOff: a switch stops the operation: the cluster's split or merge switch
	// (admin's SetSplit, SetMerge), or the table's SPLIT_ENABLED or MERGE_ENABLED.
	ErrSwitchedOff = errors.New("switched off")
	// ErrAbortRefused: the master did not abort the procedure: it does not know it, it has
	// finished, or its kind cannot be aborted at its current step.
	ErrAbortRefused = errors.New("procedure abort refused")
	// ErrProcedureAborted: the master procedure of the call was aborted (an operator's
	// AbortProcedure) and rolled back; the call's change was not made
	// (ProcedureAbortedException, which a procedure's result wraps in a
	// DoNotRetryIOException).
	ErrProcedureAborted = errors.New("procedure aborted")
)

// classifyAdminOps gives the meanings HBase says in the message of an exception whose class
// says less (a plain IOException, ConstraintException, InvalidFamilyOperationException) or
// says one thing of several (MergeRegionException). It runs after the class's own kinds are
// set.
func (e *RemoteError) classifyAdminOps(name string) {
	m := e.Message
	switch {
	case name == "InvalidFamilyOperationException" && strings.Contains(m, "already exists"):
		e.kinds = []error{ErrFamilyExists, ErrDoNotRetry}
	case name == "InvalidFamilyOperationException" && strings.Contains(m, "does not exist"):
		e.kinds = []error{ErrNoSuchFamily, ErrDoNotRetry}
	case name == "InvalidFamilyOperationException" && strings.Contains(m, "only column family"):
		e.kinds = []error{ErrLastFamily, ErrDoNotRetry}
	case name == "ConstraintException" && strings.HasPrefix(m, "Reserved namespace"):
		e.kinds = []error{ErrNamespaceReserved, ErrDoNotRetry}
	case name == "MergeRegionException" && strings.Contains(m, "non-adjacent"):
		e.kinds = []error{ErrMergeRefused, ErrRegionsNotAdjacent, ErrDoNotRetry}
	case name == "MergeRegionException":
		e.kinds = []error{ErrMergeRefused, ErrDoNotRetry}
	case name == "ProcedureAbortedException" || name == "DoNotRetryIOException" && strings.HasPrefix(m, procedureAborted):
		e.kinds = []error{ErrProcedureAborted, ErrDoNotRetry}
	case (name == "IOException" || name == "DoNotRetryIOException") && switchedOff(m):
		e.kinds = []error{ErrSwitchedOff, ErrDoNotRetry}
	}
}

// procedureAborted starts the message of the DoNotRetryIOException a master procedure's
// result carries when an operator aborted it.
const procedureAborted = "org.apache.hadoop.hbase.procedure2.ProcedureAbortedException"

// switchedOff reports whether a split's or merge's refusal says a switch is off (HBase 2.6:
// "Split region ... failed due to split switch off", "Merge of ... failed because merge switch
// is off", "... failed as region split is disabled for the table").
func switchedOff(m string) bool {
	return (strings.HasPrefix(m, "Split region ") || strings.HasPrefix(m, "Merge of ")) &&
		(strings.Contains(m, "switch off") || strings.Contains(m, "switch is off") || strings.Contains(m, "disabled for the table"))
}
