package hberr

import (
	"strconv"
)

// RegionsError is the error of a coprocessor call made on every region of a row range
// (package coprocessor's CallRegions, and the aggregation client built on it) when some of
// those regions failed: the other regions' results are still returned beside it. It prints
// the first failure and how many there were,
//
//	hbase: AggregateService.GetSum "users": 2 of 5 regions failed; first: hbase: AggregateService.GetSum "users"/"m": ...
//
// and unwraps to every region's error (each an *OpError whose Row is where the region's part
// of the range starts), so errors.Is sees what any of them wraps: ErrNotSupported when the
// endpoint is not loaded, the *RemoteError of the server's exception, the context's error.
type RegionsError struct {
	Op      string  // the service and method, e.g. "AggregateService.GetSum"
	Table   string  // the table
	Regions int     // how many regions the call reached or tried
	Errs    []error // each failed region's error, in key order
}

// Error implements error.
func (e *RegionsError) Error() string {
	s := "hbase: " + e.Op + " " + strconv.Quote(e.Table) + ": " + strconv.Itoa(len(e.Errs)) +
		" of " + strconv.Itoa(e.Regions) + " regions failed"
	if len(e.Errs) > 0 {
		s += "; first: " + e.Errs[0].Error()
	}
	return s
}

// Unwrap returns every region's error.
func (e *RegionsError) Unwrap() []error { return e.Errs }
