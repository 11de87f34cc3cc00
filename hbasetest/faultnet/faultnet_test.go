package faultnet

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// echoServer answers every read with the same bytes; serverErrs gets how each connection's
// reads ended.
func echoServer(t *testing.T) (addr string, serverErrs chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	serverErrs = make(chan error, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, err := io.Copy(c, c)
				serverErrs <- err
			}()
		}
	}()
	return ln.Addr().String(), serverErrs
}

func dial(t *testing.T, n *Network, addr string) net.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := n.DialContext(ctx, "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func roundTrip(t *testing.T, c net.Conn, msg string) (string, error) {
	t.Helper()
	if _, err := c.Write([]byte(msg)); err != nil {
		return "", err
	}
	buf := make([]byte, len(msg))
	_, err := io.ReadFull(c, buf)
	return string(buf), err
}

func TestBlackHoleHoldsBytesUntilHealed(t *testing.T) {
	addr, _ := echoServer(t)
	n := New()
	c := dial(t, n, addr)
	if got, err := roundTrip(t, c, "before"); err != nil || got != "before" {
		t.Fatalf("round trip = %q, %v", got, err)
	}
	n.BlackHole(addr)
	c.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := c.Write([]byte("x")); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("write into a black hole: err = %v; want a deadline error", err)
	}
	c.SetWriteDeadline(time.Time{})
	// Bytes sent before the partition are held back too.
	n.Heal(addr)
	if _, err := c.Write([]byte("held")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // the echo is back at the client, held by the fault
	n.BlackHole(addr)
	c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	buf := make([]byte, 4)
	if k, err := c.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) || k != 0 {
		t.Fatalf("read from a black hole = %d, %v; want 0 and a deadline error", k, err)
	}
	c.SetReadDeadline(time.Time{})
	done := make(chan error, 1)
	go func() {
		_, err := io.ReadFull(c, buf)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("read returned during the black hole: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	n.Heal(addr)
	if err := <-done; err != nil || string(buf) != "held" {
		t.Fatalf("after healing: %q, %v; want the held bytes", buf, err)
	}
}

func TestBlackHoledDialEndsWithItsContext(t *testing.T) {
	addr, _ := echoServer(t)
	n := New()
	n.BlackHole(addr)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	began := time.Now()
	if _, err := n.DialContext(ctx, "tcp", addr); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("dial into a black hole: err = %v; want DeadlineExceeded", err)
	}
	if d := time.Since(began); d > time.Second {
		t.Errorf("dial returned %v after its 50ms context", d)
	}
	// A dial waiting when the partition heals goes through.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	go func() { time.Sleep(30 * time.Millisecond); n.Heal(addr) }()
	c, err := n.DialContext(ctx2, "tcp", addr)
	if err != nil {
		t.Fatalf("dial across the heal: %v", err)
	}
	c.Close()
}

func TestResetAfterBreaksTheStreamWithRST(t *testing.T) {
	addr, serverErrs := echoServer(t)
	n := New()
	c := dial(t, n, addr)
	n.ResetAfter(addr, 3)
	if _, err := c.Write([]byte("abcdef")); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(c)
	if string(got) != "abc" || !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("read %q, %v; want \"abc\" then ECONNRESET", got, err)
	}
	select {
	case err := <-serverErrs:
		if !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("server side ended with %v; want a TCP reset", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("server side did not see the connection end")
	}
	if _, err := c.Write([]byte("x")); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("write after the reset: %v; want ECONNRESET", err)
	}
	// It fired once: a new connection works.
	if got, err := roundTrip(t, dial(t, n, addr), "again"); err != nil || got != "again" {
		t.Errorf("new connection after the reset: %q, %v", got, err)
	}
}

func TestLatencyAndSlowReads(t *testing.T) {
	addr, _ := echoServer(t)
	n := New()
	c := dial(t, n, addr)
	n.Latency(addr, 100*time.Millisecond)
	began := time.Now()
	if got, err := roundTrip(t, c, "hi"); err != nil || got != "hi" {
		t.Fatalf("round trip = %q, %v", got, err)
	}
	if d := time.Since(began); d < 100*time.Millisecond {
		t.Errorf("round trip took %v with 100ms latency", d)
	}
	n.Heal(addr)
	n.SlowReads(addr, 2, 20*time.Millisecond)
	msg := bytes.Repeat([]byte("z"), 10)
	began = time.Now()
	if _, err := c.Write(msg); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	k, err := c.Read(buf)
	if err != nil || k > 2 {
		t.Fatalf("slow read = %d, %v; want at most 2 bytes", k, err)
	}
	if _, err := io.ReadFull(c, buf[k:]); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d < 80*time.Millisecond {
		t.Errorf("10 bytes 2 at a time every 20ms took %v", d)
	}
}

func TestCloseEndsWaitsAndGoroutines(t *testing.T) {
	addr, _ := echoServer(t)
	before := runtime.NumGoroutine()
	n := New()
	n.BlackHole(addr)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go func() { time.Sleep(10 * time.Millisecond); n.HealAll() }()
	c, err := n.DialContext(ctx, "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	n.BlackHole(addr)
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 1))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	if n.Open(addr) != 1 {
		t.Errorf("Open = %d; want 1", n.Open(addr))
	}
	c.Close()
	if err := <-done; !errors.Is(err, net.ErrClosed) {
		t.Errorf("read blocked in a black hole after Close: %v; want net.ErrClosed", err)
	}
	if n.Open(addr) != 0 {
		t.Errorf("Open = %d after Close; want 0", n.Open(addr))
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+1 && time.Now().Before(deadline) { // +1: the echo handler
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before+1 {
		t.Errorf("%d goroutines after Close, %d before the connection", g, before)
	}
}
