package coprocessor

import (
	"fmt"

	"github.com/go-hbase/hbase/hberr"
)

// Option configures a coprocessor call (Call, CallRegions).
type Option func(*options) error

type options struct {
	concurrency int
	idempotent  bool
}

// DefaultConcurrency is how many regions CallRegions calls at once unless WithConcurrency says.
const DefaultConcurrency = 16

// WithConcurrency sets how many regions CallRegions calls at once (at least 1; default
// DefaultConcurrency).
func WithConcurrency(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("coprocessor: %w: WithConcurrency(%d): want at least 1", hberr.ErrBadRequest, n)
		}
		o.concurrency = n
		return nil
	}
}

// Idempotent says that the method only reads, or that running it twice does no harm: a call
// whose connection broke after it was sent, or whose answer was corrupt, is then sent again,
// as a Get is. Without it such a call ends with an error wrapping hberr.ErrIndeterminate: the
// server may or may not have run the method.
func Idempotent() Option {
	return func(o *options) error {
		o.idempotent = true
		return nil
	}
}

func applyOptions(opts []Option) (options, error) {
	o := options{concurrency: DefaultConcurrency}
	for _, opt := range opts {
		if opt == nil {
			return o, fmt.Errorf("coprocessor: %w: nil Option", hberr.ErrBadRequest)
		}
		if err := opt(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}
