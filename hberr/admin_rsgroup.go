package hberr

import "errors"

// Sentinels of the region server group calls (package admin). The server says both with a
// ConstraintException, so each also wraps ErrDoNotRetry.
var (
	// ErrRSGroupNotFound: no region server group of that name.
	ErrRSGroupNotFound = errors.New("rsgroup not found")
	// ErrRSGroupExists: a region server group of that name exists already.
	ErrRSGroupExists = errors.New("rsgroup already exists")
)
