//go:build race

package cipher

// raceEnabled: the race detector makes sync.Pool drop items on purpose, so allocation counts
// that rely on a pool are only meaningful without it.
const raceEnabled = true
