package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// maxSize is the largest file the repository tracks: every file here is source, generated
// code or documentation, the largest (generated protobuf code) well under it.
const maxSize = 1 << 20

// check returns one line per tracked file of the work tree holding dir that breaks a rule:
// size and content as the work tree has them (what the next commit would hold), the
// executable bit as the index has it (what git records).
func check(dir string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "--stage", "-z")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	top, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return nil, fmt.Errorf("git rev-parse: %w", err)
	}
	root := strings.TrimSpace(string(top))
	var problems []string
	seen := map[string]bool{}
	for entry := range strings.SplitSeq(string(out), "\x00") {
		// "<mode> <object> <stage>\t<path>"
		meta, name, ok := strings.Cut(entry, "\t")
		if !ok || seen[name] {
			continue
		}
		seen[name] = true
		mode, _, _ := strings.Cut(meta, " ")
		if mode != "100644" && mode != "100755" {
			continue // a symbolic link or a submodule: no content of its own here
		}
		p, err := checkFile(filepath.Join(root, filepath.FromSlash(name)), mode == "100755")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if p != "" {
			problems = append(problems, name+": "+p)
		}
	}
	return problems, nil
}

// checkFile says what is wrong with one tracked file, or "".
func checkFile(name string, executable bool) (string, error) {
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil // deleted in the work tree: the next commit will not hold it
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	var problems []string
	if fi.Size() > maxSize {
		problems = append(problems, fmt.Sprintf("%d bytes, over the limit of %d (1 MiB) for a tracked file", fi.Size(), maxSize))
	}
	head := make([]byte, 4096)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	head = head[:n]
	if kind := binaryKind(head); kind != "" {
		problems = append(problems, "an executable binary ("+kind+")")
	} else if executable && !bytes.HasPrefix(head, []byte("#!")) {
		problems = append(problems, "the executable bit on a file that is not a script (no #! line): a binary, or chmod -x it (git update-index --chmod=-x)")
	}
	return strings.Join(problems, "; "), nil
}

// binaryKind names the executable format whose magic number head starts with, or "".
func binaryKind(head []byte) string {
	if len(head) < 4 {
		return ""
	}
	switch m := binary.BigEndian.Uint32(head); {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "ELF"
	case m == 0xfeedface || m == 0xfeedfacf || m == 0xcefaedfe || m == 0xcffaedfe:
		return "Mach-O"
	case m == 0xcafebabe:
		// Also a Java class file's magic: build output either way.
		return "Mach-O universal binary or Java class file"
	case head[0] == 'M' && head[1] == 'Z' && isPE(head):
		return "PE"
	}
	return ""
}

// isPE reports whether an MZ header points (e_lfanew, at 0x3c) at a PE signature within head;
// the check keeps a text file that happens to start with "MZ" out.
func isPE(head []byte) bool {
	if len(head) < 0x40 {
		return false
	}
	off := int(binary.LittleEndian.Uint32(head[0x3c:]))
	return off >= 0x40 && off+4 <= len(head) && bytes.Equal(head[off:off+4], []byte("PE\x00\x00"))
}
