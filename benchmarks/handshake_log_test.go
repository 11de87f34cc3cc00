package benchmarks

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
)

// handshakeLog is a slog.Handler that keeps, of everything a client logs, the layer each
// "sasl: handshake done" record names, as "qop cipher" ("-" without a cipher): the proof that
// a mode measured what its name says. The client logs no debug records per operation, so
// enabling debug costs nothing on the measured path.
type handshakeLog struct {
	rec   *layerSet
	attrs []slog.Attr
}

type layerSet struct {
	mu   sync.Mutex
	seen []string
}

func newHandshakeLog() *handshakeLog { return &handshakeLog{rec: &layerSet{}} }

// layers returns the distinct layers negotiated so far, in first-seen order.
func (h *handshakeLog) layers() []string {
	h.rec.mu.Lock()
	defer h.rec.mu.Unlock()
	return slices.Clone(h.rec.seen)
}

func (h *handshakeLog) Enabled(context.Context, slog.Level) bool { return true }

func (h *handshakeLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "sasl: handshake done" {
		return nil
	}
	qop, ciph := "?", "-"
	pick := func(a slog.Attr) bool {
		switch a.Key {
		case "qop":
			qop = a.Value.String()
		case "cipher":
			ciph = a.Value.String()
		}
		return true
	}
	for _, a := range h.attrs {
		pick(a)
	}
	r.Attrs(pick)
	layer := qop + " " + ciph
	h.rec.mu.Lock()
	if !slices.Contains(h.rec.seen, layer) {
		h.rec.seen = append(h.rec.seen, layer)
	}
	h.rec.mu.Unlock()
	return nil
}

func (h *handshakeLog) WithAttrs(as []slog.Attr) slog.Handler {
	return &handshakeLog{rec: h.rec, attrs: append(slices.Clone(h.attrs), as...)}
}

// WithGroup drops the group: the handshake's attributes are looked up by key alone.
func (h *handshakeLog) WithGroup(string) slog.Handler { return h }

func TestHandshakeLog(t *testing.T) {
	h := newHandshakeLog()
	log := slog.New(h).With("component", "go-hbase")
	log.With("server", "localhost", "qop", "auth").Debug("sasl: handshake done")
	log.With("qop", "auth-conf").WithGroup("g").Debug("sasl: handshake done", "cipher", "gss-wrap")
	log.With("qop", "auth").Debug("sasl: handshake done")
	log.Info("region: connected", "qop", "auth-int")
	got := h.layers()
	if want := []string{"auth -", "auth-conf gss-wrap"}; !slices.Equal(got, want) {
		t.Errorf("layers %q, want %q", got, want)
	}
}
