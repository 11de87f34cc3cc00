//go:build race

package engine

// raceEnabled: the race detector allocates, so allocation counts are checked without it.
const raceEnabled = true
