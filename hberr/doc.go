package hberr

import (
	"errors"
	"strconv"
)

// Sentinels of the document layer (package doc). None of them is a server's refusal: each
// says what the document, the path, the update or the query was, and sending the same call
// again cannot succeed, except ErrVersionConflict (read the document again and decide).
var (
	// ErrDocumentExists: Insert of an id whose document exists.
	ErrDocumentExists = errors.New("document exists")
	// ErrDocumentNotFound: Get, Replace, Update or Delete of an id without a document (never
	// written, or deleted).
	ErrDocumentNotFound = errors.New("document not found")
	// ErrVersionConflict: a conditional write (doc.IfVersion) found the document at another
	// version than the one it was given, or another writer changed it in between: nothing
	// was written.
	ErrVersionConflict = errors.New("document version conflict")
	// ErrDocumentLimit: a document, a path or an index key is over one of the collection's
	// limits (depth, qualifier size, row size, index key size). Nothing was written: the
	// error is a *DocLimitError that names the limit, the path and the sizes.
	ErrDocumentLimit = errors.New("document limit")
	// ErrInvalidDocument: a value that cannot be a document (the root is not an object, a
	// NaN or infinite number, a key or string that is not UTF-8, a Go type without a JSON
	// form, JSON that does not parse), a stored row whose cells do not decode, or a document
	// that does not fit the Go value it is decoded into.
	ErrInvalidDocument = errors.New("invalid document")
	// ErrInvalidPath: a path that does not parse (doc.ParsePath's syntax).
	ErrInvalidPath = errors.New("invalid document path")
	// ErrInvalidUpdate: an update that cannot apply to the document as it is: a path through
	// a scalar, an array index out of range, an increment of a non-number or past the int64
	// range, an append to a non-array. Nothing was written.
	ErrInvalidUpdate = errors.New("invalid document update")
	// ErrInvalidQuery: a query condition that cannot be evaluated (a container as the value
	// of a comparison, a prefix of a non-string).
	ErrInvalidQuery = errors.New("invalid document query")
	// ErrIndexNotFound: the collection has no index of that name.
	ErrIndexNotFound = errors.New("document index not found")
)

// DocError is the error of every call of the document layer (package doc): the operation,
// the collection (table and family), the document id (empty for a query), the path the
// failure is about (empty when none) and the cause. It prints as
//
//	hbase: doc Update "users"/"d" id "alice" at .address.city: invalid document update: ...
//
// and unwraps to the cause, so errors.Is sees the sentinels above, a *DocLimitError, and the
// client's *OpError (with its own sentinels) when the cluster failed the call.
type DocError struct {
	Op     string // Insert, Replace, Upsert, Update, Delete, Get, Find, RepairIndex, Decode
	Table  string
	Family string
	ID     string
	Path   string
	Err    error
}

// Error implements error.
func (e *DocError) Error() string {
	s := "hbase: doc " + e.Op
	if e.Table != "" {
		s += " " + strconv.Quote(e.Table) + "/" + strconv.Quote(e.Family)
	}
	if e.ID != "" {
		s += " id " + quoteRow([]byte(e.ID))
	}
	if e.Path != "" {
		s += " at " + e.Path
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *DocError) Unwrap() error { return e.Err }

// DocLimitError is a document over one of its collection's limits (ErrDocumentLimit): which
// limit (Limit: "depth", "qualifier", "row" or "index key"), the path where it was passed
// (for "row", the path whose cell crossed it), the size found and the limit. It prints as
//
//	document limit: qualifier of 5000 bytes at .a.b over the limit of 4096
type DocLimitError struct {
	Limit string
	Path  string
	Size  int
	Max   int
}

// Error implements error.
func (e *DocLimitError) Error() string {
	unit := " bytes"
	if e.Limit == "depth" {
		unit = ""
	}
	s := ErrDocumentLimit.Error() + ": " + e.Limit + " of " + strconv.Itoa(e.Size) + unit
	if e.Path != "" {
		s += " at " + e.Path
	}
	return s + " over the limit of " + strconv.Itoa(e.Max)
}

// Unwrap returns ErrDocumentLimit.
func (e *DocLimitError) Unwrap() error { return ErrDocumentLimit }
