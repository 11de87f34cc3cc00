package hbasetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// launcher is a built minicluster project: what is needed to run its JVMs.
type launcher struct {
	java      string // path of the java binary
	classpath string // classes directory plus every dependency jar
}

// launcherSourceDir finds the Maven project: $HBASETEST_LAUNCHER_DIR, else the minicluster
// directory next to this source file.
func launcherSourceDir() (string, error) {
	if d := os.Getenv("HBASETEST_LAUNCHER_DIR"); d != "" {
		return d, nil
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("hbasetest: cannot locate the minicluster sources; set HBASETEST_LAUNCHER_DIR")
	}
	d := filepath.Join(filepath.Dir(file), "minicluster")
	if _, err := os.Stat(filepath.Join(d, "pom.xml")); err != nil {
		return "", fmt.Errorf("hbasetest: minicluster sources not found (set HBASETEST_LAUNCHER_DIR): %w", err)
	}
	return d, nil
}

// sourceHash identifies a build: the HBase version, the pom and every file under src/.
func sourceHash(srcDir, version string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "version %s\n", version)
	files := []string{"pom.xml"}
	err := filepath.WalkDir(filepath.Join(srcDir, "src"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(srcDir, p)
			if err != nil {
				return err
			}
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(srcDir, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(f), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// buildCacheDir is where built launchers live: $HBASETEST_CACHE_DIR, else the user's cache
// directory. Outside the source tree so a read-only module cache works too.
func buildCacheDir() (string, error) {
	if d := os.Getenv("HBASETEST_CACHE_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("hbasetest: no cache directory (set HBASETEST_CACHE_DIR): %w", err)
	}
	return filepath.Join(d, "go-hbase", "hbasetest"), nil
}

func findJava() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("hbasetest: java (JDK 17) not found: %w", err)
	}
	return p, nil
}

// BuildLauncher builds the launcher for an HBase version (empty: DefaultHBaseVersion) unless
// an up-to-date build exists. Start does this itself; calling it first (as `make test` does)
// keeps the Maven time out of the first test's start timeout.
func BuildLauncher(ctx context.Context, hbaseVersion string, logger *slog.Logger) error {
	o := Options{HBaseVersion: hbaseVersion, Logger: logger}.withDefaults()
	_, err := buildLauncher(ctx, o.HBaseVersion, o.Logger)
	return err
}

// buildLauncher builds the minicluster project for version unless a build of the same
// sources exists. Builds are keyed on the source hash and serialised by a file lock, so
// concurrent test binaries build once. Maven runs offline first: once the jars are in the
// local repository, rebuilding after a source change does not touch the network.
func buildLauncher(ctx context.Context, version string, log *slog.Logger) (*launcher, error) {
	java, err := findJava()
	if err != nil {
		return nil, err
	}
	srcDir, err := launcherSourceDir()
	if err != nil {
		return nil, err
	}
	hash, err := sourceHash(srcDir, version)
	if err != nil {
		return nil, fmt.Errorf("hbasetest: hashing launcher sources: %w", err)
	}
	root, err := buildCacheDir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("hbasetest: %w", err)
	}
	buildDir := filepath.Join(root, version+"-"+hash)
	if l, ok := readBuild(java, buildDir); ok {
		return l, nil
	}
	unlock, err := lockFile(ctx, buildDir+".lock")
	if err != nil {
		return nil, fmt.Errorf("hbasetest: locking the launcher build: %w", err)
	}
	defer unlock()
	if l, ok := readBuild(java, buildDir); ok { // another process built it meanwhile
		return l, nil
	}
	start := time.Now()
	log.Info("hbasetest: building the minicluster launcher", "version", version, "dir", buildDir)
	args := []string{"-q", "-B", "-f", filepath.Join(srcDir, "pom.xml"), "package",
		"-Dhbase.version=" + version, "-Dlauncher.build.dir=" + buildDir}
	if hadoop2(version) {
		args = append(args, "-Phadoop2")
	}
	if out, err := runMaven(ctx, append([]string{"-o"}, args...)); err != nil {
		log.Info("hbasetest: offline build failed, resolving dependencies online", "err", err, "output", tailLines(out, 5))
		if out, err := runMaven(ctx, args); err != nil {
			return nil, &StartError{Err: fmt.Errorf("building the launcher with Maven: %w", err), LogTail: tailLines(out, 40)}
		}
	}
	if err := os.WriteFile(filepath.Join(buildDir, "ok"), []byte(hash+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("hbasetest: %w", err)
	}
	log.Info("hbasetest: launcher built", "elapsed", time.Since(start).Round(time.Millisecond))
	l, ok := readBuild(java, buildDir)
	if !ok {
		return nil, fmt.Errorf("hbasetest: Maven finished but %s has no classpath.txt", buildDir)
	}
	return l, nil
}

// hadoop2 reports whether an hbase-testing-util version is built against Hadoop 2: Maven
// Central has every 2.x release so, and only from 2.5 also a "-hadoop3" build. The pom's
// hadoop2 profile adds the Kerby-based MiniKdc such builds lack.
func hadoop2(version string) bool {
	return strings.HasPrefix(version, "2.") && !strings.HasSuffix(version, "-hadoop3")
}

func readBuild(java, buildDir string) (*launcher, bool) {
	if _, err := os.Stat(filepath.Join(buildDir, "ok")); err != nil {
		return nil, false
	}
	cp, err := os.ReadFile(filepath.Join(buildDir, "classpath.txt"))
	if err != nil {
		return nil, false
	}
	return &launcher{
		java:      java,
		classpath: filepath.Join(buildDir, "classes") + string(os.PathListSeparator) + strings.TrimSpace(string(cp)),
	}, true
}

func runMaven(ctx context.Context, args []string) (string, error) {
	cmd := exec.CommandContext(ctx, "mvn", args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.String(), err
}

// tailLines returns the last n lines of s.
func tailLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
