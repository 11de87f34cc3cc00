package hbasetest

import (
	"bytes"
	"strings"
	"sync"
)

// tailBuffer keeps the last lines written to it, for error messages.
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	lines   []string
	partial []byte
	watch   func(line string) // if set, sees every complete line; must not block
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

// Write takes raw output (stderr) and splits it into lines.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.partial = append(t.partial, p...)
			if len(t.partial) > 4096 {
				t.addLocked(string(t.partial))
				t.partial = t.partial[:0]
			}
			return n, nil
		}
		t.partial = append(t.partial, p[:i]...)
		t.addLocked(string(t.partial))
		t.partial = t.partial[:0]
		p = p[i+1:]
	}
}

// WriteLine adds one complete line.
func (t *tailBuffer) WriteLine(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.addLocked(s)
}

func (t *tailBuffer) addLocked(s string) {
	if len(s) > 2000 && !strings.HasPrefix(s, "READY ") {
		s = s[:2000] + "..."
	}
	if t.watch != nil {
		t.watch(s)
	}
	t.lines = append(t.lines, s)
	if len(t.lines) > t.max {
		t.lines = t.lines[len(t.lines)-t.max:]
	}
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := t.lines
	if len(t.partial) > 0 {
		lines = append(lines[:len(lines):len(lines)], string(t.partial))
	}
	return strings.Join(lines, "\n")
}
