package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// module is one go.mod's directory and the files that go into its zip.
type module struct {
	Path  string   // the module path of its go.mod
	Dir   string   // slash path from the work tree's top; "" for the top itself
	Files []string // slash paths relative to Dir, sorted; the go.mod among them
}

// treeFiles returns the work tree's top and the regular files git tracks or would track there
// (slash paths from the top): the content a commit of the work tree would hold. Ignored files
// (the launcher's Maven target/, test binaries) stay out, as they stay out of a tag. Symbolic
// links are left out as the go command leaves them out of module zips, and so are tracked files
// deleted from the work tree.
func treeFiles(dir string) (string, []string, error) {
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", nil, err
	}
	top = strings.TrimSpace(top)
	list, err := git(top, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return "", nil, err
	}
	var files []string
	seen := map[string]bool{}
	for name := range strings.SplitSeq(list, "\x00") {
		if name == "" || seen[name] {
			continue // ls-files repeats a path with unmerged stages
		}
		seen[name] = true
		fi, err := os.Lstat(filepath.Join(top, filepath.FromSlash(name)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", nil, err
		}
		if fi.Mode().IsRegular() {
			files = append(files, name)
		}
	}
	sort.Strings(files)
	return top, files, nil
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s in %s: %w: %s", strings.Join(args, " "), dir, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return string(out), nil
}

// findModules groups files (slash paths from the work tree's top) by module: each file belongs
// to the deepest directory above it that holds a go.mod, so a nested module's files are in its
// own zip and not in its parent's, the go command's rule. read returns a file's content.
func findModules(files []string, read func(name string) ([]byte, error)) ([]*module, error) {
	byDir := map[string]*module{}
	var mods []*module
	for _, f := range files {
		if path.Base(f) != "go.mod" {
			continue
		}
		dir := path.Dir(f)
		if dir == "." {
			dir = ""
		}
		data, err := read(f)
		if err != nil {
			return nil, err
		}
		p, err := modulePath(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		m := &module{Path: p, Dir: dir}
		byDir[dir] = m
		mods = append(mods, m)
	}
	for _, f := range files {
		m, rel := owner(byDir, f)
		if m == nil {
			continue
		}
		if inVendor(rel) {
			return nil, fmt.Errorf("%s: vendor directories are not published (the go command's zip rules for them are not implemented)", f)
		}
		m.Files = append(m.Files, rel)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	return mods, nil
}

// owner returns the module of the deepest directory above f holding a go.mod, and f's path
// relative to it.
func owner(byDir map[string]*module, f string) (*module, string) {
	for dir := path.Dir(f); ; dir = path.Dir(dir) {
		key := dir
		if key == "." {
			key = ""
		}
		if m, ok := byDir[key]; ok {
			if key == "" {
				return m, f
			}
			return m, f[len(key)+1:]
		}
		if key == "" {
			return nil, ""
		}
	}
}

func inVendor(rel string) bool {
	return rel == "vendor" || strings.HasPrefix(rel, "vendor/") || strings.Contains(rel, "/vendor/")
}

// modulePath reads the module directive of a go.mod file.
func modulePath(gomod []byte) (string, error) {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) != 2 || fields[0] != "module" {
			continue
		}
		p := fields[1]
		if strings.HasPrefix(p, `"`) || strings.HasPrefix(p, "`") {
			u, err := strconv.Unquote(p)
			if err != nil {
				return "", fmt.Errorf("module directive %s: %w", p, err)
			}
			p = u
		}
		return p, nil
	}
	return "", errors.New("no module directive")
}
