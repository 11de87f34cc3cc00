//go:build !race

package hrpc

const raceEnabled = false
