//go:build race

package region

// raceEnabled: race-detector builds leave rawConn out (see rawconn_linux.go).
const raceEnabled = true
