// Package archtest holds the test that keeps docs/architecture.md and the code in step: the
// layer table's import rules against go list, and the rule that the stable packages' exported
// API names no type of a lower layer or internal package. It has no code of its own; make
// check runs its test.
package archtest
