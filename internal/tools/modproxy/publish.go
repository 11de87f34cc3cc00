package main

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// maxZipSize is the go command's limit on a module's unzipped size (500 MiB); a bigger module
// would only fail later, in a consumer's build, with a less direct message.
const maxZipSize = 500 << 20

var semver = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)

// publish writes every module of the work tree holding root into the proxy directory out at
// version, and returns them.
func publish(root, out, version string) ([]*module, error) {
	if !semver.MatchString(version) {
		return nil, fmt.Errorf("version %q is not a semantic version vMAJOR.MINOR.PATCH", version)
	}
	top, files, err := treeFiles(root)
	if err != nil {
		return nil, err
	}
	mods, err := findModules(files, func(name string) ([]byte, error) {
		return os.ReadFile(filepath.Join(top, filepath.FromSlash(name)))
	})
	if err != nil {
		return nil, err
	}
	if len(mods) == 0 {
		return nil, fmt.Errorf("no go.mod in the work tree %s", top)
	}
	when := commitTime(top)
	for _, m := range mods {
		if err := checkMajor(m.Path, version); err != nil {
			return nil, err
		}
		if err := writeModule(top, out, m, version, when); err != nil {
			return nil, fmt.Errorf("%s: %w", m.Path, err)
		}
	}
	return mods, nil
}

// checkMajor applies semantic import versioning: from v2 on, the module path ends in /vN.
func checkMajor(modPath, version string) error {
	major, _ := strconv.Atoi(semver.FindStringSubmatch(version)[1])
	if major < 2 || strings.HasSuffix(modPath, "/v"+strconv.Itoa(major)) {
		return nil
	}
	return fmt.Errorf("module %s cannot be published at %s: its path must end in /v%d", modPath, version, major)
}

// commitTime is the time of the work tree's HEAD commit, the time a tag there would carry;
// now if there is no commit yet.
func commitTime(top string) time.Time {
	out, err := git(top, "log", "-1", "--format=%cI")
	if err == nil {
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(out)); err == nil {
			return t.UTC()
		}
	}
	return time.Now().UTC().Truncate(time.Second)
}

// writeModule writes one module's list, .info, .mod and .zip files.
func writeModule(top, out string, m *module, version string, when time.Time) error {
	dir := filepath.Join(out, filepath.FromSlash(escape(m.Path)), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(dir, escape(version))
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, when})
	if err != nil {
		return err
	}
	gomod, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(m.Dir), "go.mod"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "list"), []byte(version+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(base+".info", info, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(base+".mod", gomod, 0o644); err != nil {
		return err
	}
	f, err := os.Create(base + ".zip")
	if err != nil {
		return err
	}
	err = writeZip(f, filepath.Join(top, filepath.FromSlash(m.Dir)), m, version)
	return errors.Join(err, f.Close())
}

// writeZip writes the module zip: every file under the prefix module@version/, in path order.
// Timestamps are left zero: the go command's checksum covers names and contents only, and the
// zip stays the same from one run to the next.
func writeZip(w io.Writer, dir string, m *module, version string) error {
	zw := zip.NewWriter(w)
	prefix := m.Path + "@" + version + "/"
	var total int64
	for _, rel := range m.Files {
		if err := addFile(zw, filepath.Join(dir, filepath.FromSlash(rel)), prefix+rel, &total); err != nil {
			return err
		}
	}
	return zw.Close()
}

func addFile(zw *zip.Writer, name, entry string, total *int64) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	zf, err := zw.CreateHeader(&zip.FileHeader{Name: entry, Method: zip.Deflate})
	if err != nil {
		return err
	}
	n, err := io.Copy(zf, f)
	*total += n
	if err == nil && *total > maxZipSize {
		err = fmt.Errorf("the module's files exceed the go command's limit of %d bytes at %s", maxZipSize, entry)
	}
	return err
}

// escape is the proxy protocol's case encoding of module paths and versions: each upper-case
// letter becomes '!' and its lower case, so that case-insensitive file systems can serve it.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
