package sasl

import (
	"testing"

	"go.uber.org/goleak"
)

// No test may leave a goroutine behind (ticket requests, fake servers, region readers).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
