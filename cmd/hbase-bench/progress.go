package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// progressPrinter shows how a run is going on stderr: on a terminal one line rewritten in
// place after every window (-interval), elsewhere (a log, CI) a plain line every -progress.
// It is also the writer of the log, so that a log line never lands in the middle of the
// live one.
type progressPrinter struct {
	mu    sync.Mutex
	out   io.Writer
	tty   bool
	every time.Duration // plain lines: how often per run (0: none)
	label string        // the run the line on screen (tty) or the last plain line is about
	shown bool          // tty: a live line is on screen, without its newline
	next  time.Duration // plain lines: the elapsed time of the next one
}

// newProgressPrinter writes to out; isTerminal says whether out is one.
func newProgressPrinter(out io.Writer, isTerminal bool, every time.Duration) *progressPrinter {
	return &progressPrinter{out: out, tty: isTerminal, every: every}
}

// isTerminal reports whether w is a terminal (not a file, pipe or /dev/null).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// update shows u.
func (p *progressPrinter) update(u progressUpdate) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.every <= 0 {
		return
	}
	line := progressLine(u)
	if p.tty {
		if p.shown && u.Label != p.label {
			fmt.Fprintln(p.out) // keep the previous run's last line
		}
		fmt.Fprintf(p.out, "\r\x1b[K%s", line)
		p.label, p.shown = u.Label, true
		return
	}
	if u.Label != p.label {
		p.label, p.next = u.Label, p.every
	}
	if u.Elapsed >= p.next {
		fmt.Fprintln(p.out, line)
		for p.next <= u.Elapsed {
			p.next += p.every
		}
	}
}

// finish ends the live line, so that what follows starts on a line of its own.
func (p *progressPrinter) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprintln(p.out)
		p.shown = false
	}
}

// Write writes a log line below the live line, which stays as it was.
func (p *progressPrinter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprintln(p.out)
		p.shown = false
		p.label = ""
	}
	return p.out.Write(b)
}

// progressLine is one progress report: the last window's rate and latency, the run's totals.
func progressLine(u progressUpdate) string {
	of := ""
	if u.Planned > 0 {
		of = "/" + u.Planned.Round(time.Second).String()
	}
	return fmt.Sprintf("%s  %s%s  %.0f ops/s  p50 %d µs  p99 %d µs  ops %d  errors %d",
		u.Label, u.Elapsed.Round(time.Second), of, u.Window.OpsPerSec, u.Window.P50Micros, u.Window.P99Micros, u.Ops, u.Errors)
}
