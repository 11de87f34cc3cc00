//go:build race

package hrpc

// raceEnabled: the race detector allocates, so allocation counts are checked without it.
const raceEnabled = true
