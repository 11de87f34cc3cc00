package hbase

import (
	"errors"
	"testing"
	"time"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/engine"
)

// NewClient refuses each bad option with an error wrapping hberr.ErrConfiguration, before
// anything connects (the engine's tests run the options' effects).
func TestOptionsRefuseBadArguments(t *testing.T) {
	for name, opt := range map[string]Option{
		"WithDialer(nil)":               WithDialer(nil),
		"WithConnectionAttribute(\"\")": WithConnectionAttribute("", nil),
		"WithMaxAttempts(0)":            WithMaxAttempts(0),
		"WithMaxBackoff(0)":             WithMaxBackoff(0),
		"WithHooks(nil)":                WithHooks(nil),
		"WithHedgeDelay(-1)":            WithHedgeDelay(-time.Millisecond),
		"WithHedgeBudget(2)":            WithHedgeBudget(2),
		"WithOverloadPause(0)":          WithOverloadPause(0),
		"WithBackpressure(0)":           WithBackpressure(0),
		"nil":                           nil,
	} {
		if _, err := NewClient("127.0.0.1:2181", opt); !errors.Is(err, hberr.ErrConfiguration) {
			t.Errorf("%s: err = %v; want hberr.ErrConfiguration", name, err)
		}
	}
	if _, err := NewClient(""); !errors.Is(err, hberr.ErrConfiguration) {
		t.Errorf("empty quorum: err = %v; want hberr.ErrConfiguration", err)
	}
}

// WithConnectionAttribute given twice for one name keeps the later value, in the place of the
// first; a nil value is a name without a value.
func TestConnectionAttributeUpsert(t *testing.T) {
	o := engine.DefaultConfig()
	for _, opt := range []Option{WithConnectionAttribute("app", []byte("a")), WithConnectionAttribute("k\x00", nil),
		WithConnectionAttribute("app", []byte("b"))} {
		if err := opt(&o); err != nil {
			t.Fatal(err)
		}
	}
	a := o.ConnAttrs
	if len(a) != 2 || a[0].GetName() != "app" || string(a[0].GetValue()) != "b" || a[1].GetName() != "k\x00" || a[1].Value != nil {
		t.Errorf("attributes %v; want app=b, then k\\x00 without a value", a)
	}
}
