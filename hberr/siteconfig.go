package hberr

import "fmt"

// SiteConfigError is a value in a configuration file (hbase-site.xml, core-site.xml) that the
// client cannot use. It unwraps to ErrConfiguration and to the reason.
type SiteConfigError struct {
	File  string // the file the value came from
	Key   string
	Value string
	Err   error
}

func (e *SiteConfigError) Error() string {
	return fmt.Sprintf("hbase: %s: %s = %q: %v", e.File, e.Key, e.Value, e.Err)
}

// Unwrap returns ErrConfiguration and the reason.
func (e *SiteConfigError) Unwrap() []error { return []error{ErrConfiguration, e.Err} }
