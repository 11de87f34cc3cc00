//go:build !unix

package hbasetest

import (
	"context"
	"errors"
)

func lockFile(ctx context.Context, path string) (func(), error) {
	return nil, errors.New("hbasetest: file locking is only implemented on unix")
}
