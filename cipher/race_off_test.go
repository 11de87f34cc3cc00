//go:build !race

package cipher

const raceEnabled = false
