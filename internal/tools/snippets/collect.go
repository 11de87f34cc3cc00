package snippets

import (
	"os"
	"path/filepath"
	"slices"
)

// Collect returns the repository's public packages and every code block of README.md,
// docs/*.md and their package documentation, with a problem for each block that is not
// marked right.
func Collect(root string) (pkgs []Package, blocks []Block, problems []string, err error) {
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, nil, nil, err
	}
	for _, file := range append([]string{filepath.Join(root, "README.md")}, slices.Sorted(slices.Values(docs))...) {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, nil, nil, err
		}
		rel, err := filepath.Rel(root, file)
		if err != nil {
			return nil, nil, nil, err
		}
		b, p := Markdown(filepath.ToSlash(rel), src)
		blocks = append(blocks, b...)
		problems = append(problems, p...)
	}
	pkgs, b, p, err := PackageDocs(root)
	if err != nil {
		return nil, nil, nil, err
	}
	return pkgs, append(blocks, b...), append(problems, p...), nil
}
