package pause

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSleepWhole(t *testing.T) {
	start := time.Now()
	if err := Sleep(t.Context(), 20*time.Millisecond); err != nil {
		t.Fatalf("Sleep = %v; want nil", err)
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Fatalf("Sleep returned after %v; want at least 20ms", d)
	}
}

func TestSleepNotPositive(t *testing.T) {
	for _, d := range []time.Duration{0, -time.Second} {
		if err := Sleep(t.Context(), d); err != nil {
			t.Fatalf("Sleep(%v) = %v; want nil", d, err)
		}
	}
}

// A context that ends during the pause, or had ended before it, ends it with its cause;
// without a cause, that is its error.
func TestSleepEndsWithContextCause(t *testing.T) {
	errWhy := errors.New("why the context ended")
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, func())
		want error
	}{
		{"deadline", func() (context.Context, func()) {
			return context.WithTimeout(context.Background(), 10*time.Millisecond)
		}, context.DeadlineExceeded},
		{"deadline with a cause", func() (context.Context, func()) {
			return context.WithTimeoutCause(context.Background(), 10*time.Millisecond, errWhy)
		}, errWhy},
		{"cancelled before", func() (context.Context, func()) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, context.Canceled},
		{"cancelled before with a cause", func() (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(errWhy)
			return ctx, func() {}
		}, errWhy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			start := time.Now()
			err := Sleep(ctx, time.Minute)
			if err != tc.want {
				t.Fatalf("Sleep = %v; want %v", err, tc.want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("Sleep returned after %v; want it at the context's end", d)
			}
		})
	}
	// d <= 0 with an ended context still reports it: a loop pausing 0 between tries stops.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, 0); err != context.Canceled {
		t.Fatalf("Sleep(cancelled, 0) = %v; want context.Canceled", err)
	}
}
