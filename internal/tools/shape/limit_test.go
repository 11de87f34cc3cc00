package main

import (
	"path/filepath"
	"testing"
)

// maxFuncLines is the project's limit: no function over 100 lines outside tests and generated
// code, in any module of the tree. A longer function is split by step.
const maxFuncLines = 100

// The tree itself keeps the limit (the fixture tests above check the counting).
func TestNoFunctionOverTheLimit(t *testing.T) {
	tr, err := loadTree(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.modules) < 2 {
		t.Fatalf("%d modules in the tree; want the library and its nested modules", len(tr.modules))
	}
	for _, m := range tr.modules {
		for _, f := range tr.longFuncs(m, maxFuncLines) {
			t.Errorf("%s:%d: %s is %d lines; split it by step (the limit is %d)", f.file, f.line, f.name, f.lines, maxFuncLines)
		}
	}
}
