package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func pe() []byte {
	b := make([]byte, 0x100)
	copy(b, "MZ")
	binary.LittleEndian.PutUint32(b[0x3c:], 0x80)
	copy(b[0x80:], "PE\x00\x00")
	return b
}

func TestCheckNamesEveryBadFile(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q")
	files := []struct {
		name    string
		content []byte
		exec    bool
		bad     string // a word the problem must contain; "" for a good file
	}{
		{"ok.go", []byte("package ok\n"), false, ""},
		{"limit.txt", bytes.Repeat([]byte("a"), maxSize), false, ""},
		{"big.txt", bytes.Repeat([]byte("a"), maxSize+1), false, "over the limit"},
		{"tool", append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 64)...), true, "ELF"},
		{"big-tool", append([]byte("\x7fELF"), make([]byte, maxSize)...), true, "over the limit of 1048576 (1 MiB) for a tracked file; an executable binary (ELF)"},
		{"tool-mac", []byte{0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1}, false, "Mach-O"},
		{"tool.exe", pe(), false, "PE"},
		{"mz.txt", []byte("MZ is how this text file starts, and it is no binary.\n"), false, ""},
		{"run.sh", []byte("#!/bin/sh\necho hi\n"), true, ""},
		{"notes", []byte("not a script\n"), true, "executable bit"},
		{"tiny", []byte("x"), false, ""},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.content, 0o644); err != nil {
			t.Fatal(err)
		}
		gitRun(t, dir, "add", f.name)
		if f.exec {
			gitRun(t, dir, "update-index", "--chmod=+x", f.name)
		}
	}
	// Untracked files are not the check's business, however big.
	if err := os.WriteFile(filepath.Join(dir, "untracked.bin"), append([]byte("\x7fELF"), make([]byte, maxSize)...), 0o755); err != nil {
		t.Fatal(err)
	}
	problems, err := check(dir)
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, f := range files {
		i := slices.IndexFunc(problems, func(p string) bool { return strings.HasPrefix(p, f.name+": ") })
		switch {
		case f.bad == "" && i >= 0:
			t.Errorf("good file reported: %s", problems[i])
		case f.bad != "" && i < 0:
			t.Errorf("%s not reported (want %q)", f.name, f.bad)
		case f.bad != "" && !strings.Contains(problems[i], f.bad):
			t.Errorf("%s, want it to say %q", problems[i], f.bad)
		}
		if i >= 0 {
			named = append(named, f.name)
		}
	}
	if len(problems) != len(named) {
		t.Errorf("problems %q, of which only %q are expected files", problems, named)
	}
}
