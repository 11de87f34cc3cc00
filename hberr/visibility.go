package hberr

import (
	"errors"
	"strconv"
)

// Sentinels of the visibility labels admin (package visibility). Each also wraps
// ErrBadRequest when the client found it before sending anything, or the server's
// *RemoteError when the server refused.
var (
	// ErrInvalidLabel: a visibility label breaks HBase's syntax for labels (empty, or a
	// character outside letters, digits, '_', '-', ':', '/' and '.'); found by the client,
	// nothing is sent.
	ErrInvalidLabel = errors.New("invalid visibility label")
	// ErrLabelExists: AddLabels of a label that is defined already (LabelAlreadyExistsException).
	ErrLabelExists = errors.New("visibility label already exists")
	// ErrLabelNotFound: a label that is not defined (SetAuths), or an authorization the user
	// does not have (ClearAuths); the server's InvalidLabelException.
	ErrLabelNotFound = errors.New("visibility label not found")
)

// LabelError is the refusal of one label (or authorization) of a visibility labels call: the
// call, the label, and why, which wraps one of ErrInvalidLabel, ErrLabelExists and
// ErrLabelNotFound, or the server's exception. It prints as
//
//	hbase: AddLabels label "secret": visibility label already exists: ...
type LabelError struct {
	Op    string // AddLabels, SetAuths, ClearAuths
	Label string
	Err   error
}

// Error implements error.
func (e *LabelError) Error() string {
	return "hbase: " + e.Op + " label " + strconv.Quote(e.Label) + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *LabelError) Unwrap() error { return e.Err }
