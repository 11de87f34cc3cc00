package main

import (
	"archive/zip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree makes a git work tree in a temporary directory from name -> content; names ending
// in "@" are staged, the others left untracked.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run(t, dir, "git", "init", "-q")
	for name, content := range files {
		staged := strings.HasSuffix(name, "@")
		name = strings.TrimSuffix(name, "@")
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if staged {
			run(t, dir, "git", "add", name)
		}
	}
	return dir
}

func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func zipNames(t *testing.T, name string) []string {
	t.Helper()
	zr, err := zip.OpenReader(name)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	return names
}

var sample = map[string]string{
	"go.mod@":            "module example.com/Lib // a comment\n\ngo 1.22\n",
	"lib.go@":            "package lib\n\n// Answer is what the consumer prints.\nconst Answer = 42\n",
	".gitignore@":        "/build/\n",
	"build/out.bin":      "ignored by .gitignore: never published",
	"new.go":             "package lib\n\n// New is untracked but not ignored: a commit would hold it.\nconst New = 1\n",
	"sub/go.mod@":        "module \"example.com/Lib/sub\"\n\ngo 1.22\n",
	"sub/sub.go@":        "package sub\n",
	"sub/deep/deep.go@":  "package deep\n",
	"docs/readme.txt@":   "text\n",
	"testdata/x/go.mod@": "module example.com/x\n",
}

func TestZipsFollowModuleBoundaries(t *testing.T) {
	dir := writeTree(t, sample)
	out := t.TempDir()
	mods, err := publish(dir, out, "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, m := range mods {
		paths = append(paths, m.Path)
	}
	if want := []string{"example.com/Lib", "example.com/Lib/sub", "example.com/x"}; !slices.Equal(paths, want) {
		t.Fatalf("modules %q, want %q", paths, want)
	}
	got := zipNames(t, filepath.Join(out, "example.com/!lib/@v/v0.1.0.zip"))
	want := []string{
		"example.com/Lib@v0.1.0/.gitignore",
		"example.com/Lib@v0.1.0/docs/readme.txt",
		"example.com/Lib@v0.1.0/go.mod",
		"example.com/Lib@v0.1.0/lib.go",
		"example.com/Lib@v0.1.0/new.go",
	}
	if !slices.Equal(got, want) {
		t.Errorf("root zip holds\n%q\nwant\n%q", got, want)
	}
	got = zipNames(t, filepath.Join(out, "example.com/!lib/sub/@v/v0.1.0.zip"))
	want = []string{"example.com/Lib/sub@v0.1.0/deep/deep.go", "example.com/Lib/sub@v0.1.0/go.mod", "example.com/Lib/sub@v0.1.0/sub.go"}
	if !slices.Equal(got, want) {
		t.Errorf("nested zip holds\n%q\nwant\n%q", got, want)
	}
	list, err := os.ReadFile(filepath.Join(out, "example.com/!lib/@v/list"))
	if err != nil || string(list) != "v0.1.0\n" {
		t.Errorf("list = %q, %v", list, err)
	}
	mod, err := os.ReadFile(filepath.Join(out, "example.com/!lib/@v/v0.1.0.mod"))
	if err != nil || string(mod) != sample["go.mod@"] {
		t.Errorf(".mod = %q, %v", mod, err)
	}
	var info struct{ Version, Time string }
	data, err := os.ReadFile(filepath.Join(out, "example.com/!lib/@v/v0.1.0.info"))
	if err == nil {
		err = json.Unmarshal(data, &info)
	}
	if err != nil || info.Version != "v0.1.0" || info.Time == "" {
		t.Errorf(".info = %s, %v", data, err)
	}
}

func TestPublishRejectsBadVersions(t *testing.T) {
	dir := writeTree(t, map[string]string{"go.mod@": "module example.com/lib\n"})
	for _, v := range []string{"0.1.0", "v0.1", "latest", "v2.0.0"} {
		if _, err := publish(dir, t.TempDir(), v); err == nil {
			t.Errorf("publish at %q succeeded", v)
		}
	}
	if _, err := publish(writeTree(t, map[string]string{"go.mod@": "module example.com/lib/v2\n"}), t.TempDir(), "v2.0.0"); err != nil {
		t.Errorf("publish of a /v2 module at v2.0.0: %v", err)
	}
}

func TestModulePath(t *testing.T) {
	for in, want := range map[string]string{
		"module a.b/c\n":                  "a.b/c",
		"// x\nmodule a.b/c // y\ngo 1\n": "a.b/c",
		"module \"a.b/c\"\n":              "a.b/c",
		"module `a.b/c`\n":                "a.b/c",
	} {
		if got, err := modulePath([]byte(in)); err != nil || got != want {
			t.Errorf("modulePath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := modulePath([]byte("go 1.22\n")); err == nil {
		t.Error("modulePath without a module directive succeeded")
	}
}

// TestGoCommandAcceptsTheProxy has the go command itself download the published module
// through GOPROXY=file://, which checks the zip's layout (prefix, nested modules, file names)
// and computes its checksum, then builds a consumer of it; all offline.
func TestGoCommandAcceptsTheProxy(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	dir := writeTree(t, sample)
	proxy := t.TempDir()
	if _, err := publish(dir, proxy, "v0.1.0"); err != nil {
		t.Fatal(err)
	}
	consumer := t.TempDir()
	files := map[string]string{
		"go.mod":  "module example.com/consumer\n\ngo 1.22\n",
		"main.go": "package main\n\nimport (\n\t\"fmt\"\n\n\tlib \"example.com/Lib\"\n\t_ \"example.com/Lib/sub\"\n)\n\nfunc main() { fmt.Println(lib.Answer, lib.New) }\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(consumer, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy), "GOFLAGS=-mod=mod -modcacherw", "GONOSUMDB=example.com",
		"GOMODCACHE="+t.TempDir(), "GOWORK=off", "GOTOOLCHAIN=local")
	for _, args := range [][]string{{"get", "example.com/Lib@v0.1.0", "example.com/Lib/sub@v0.1.0"}, {"run", "."}} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir, cmd.Env = consumer, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if args[0] == "run" && strings.TrimSpace(string(out)) != "42 1" {
			t.Errorf("the consumer printed %q, want \"42 1\"", out)
		}
	}
	sum, err := os.ReadFile(filepath.Join(consumer, "go.sum"))
	if err != nil || !strings.Contains(string(sum), "example.com/Lib v0.1.0 h1:") {
		t.Errorf("go.sum = %q, %v; want the module's checksum", sum, err)
	}
}
