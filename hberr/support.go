package hberr

import "errors"

// ErrNotSupported: the server (or fakehbase, the in-process test server) does not offer what
// the call needs: a feature switched off in the cluster (RSGroups, quotas, a coprocessor
// that is not loaded), a call an older HBase lacks, or a call fakehbase does not implement.
// The error names what is missing; sending the same call again cannot succeed.
var ErrNotSupported = errors.New("not supported")
