package sasl

import (
	"fmt"
	"strings"
)

// Protection is the SASL quality of protection (HBase's hbase.rpc.protection).
type Protection uint8

const (
	// Authentication (QoP auth): Kerberos authentication, traffic in plaintext.
	Authentication Protection = 1 + iota
	// Integrity (QoP auth-int): every frame carries a checksum.
	Integrity
	// Privacy (QoP auth-conf): every frame is encrypted (GSS sealed Wrap or CryptoAES).
	Privacy
)

// RFC 4752 security-layer bits.
const (
	layerNone      = 0x01
	layerIntegrity = 0x02
	layerPrivacy   = 0x04
)

func (p Protection) bit() byte {
	switch p {
	case Integrity:
		return layerIntegrity
	case Privacy:
		return layerPrivacy
	default:
		return layerNone
	}
}

// String returns HBase's name for p ("authentication", "integrity", "privacy").
func (p Protection) String() string {
	switch p {
	case Authentication:
		return "authentication"
	case Integrity:
		return "integrity"
	case Privacy:
		return "privacy"
	}
	return fmt.Sprintf("Protection(%d)", uint8(p))
}

// QoP returns the SASL name of p ("auth", "auth-int", "auth-conf").
func (p Protection) QoP() string {
	switch p {
	case Integrity:
		return "auth-int"
	case Privacy:
		return "auth-conf"
	}
	return "auth"
}

// ParseProtection accepts HBase's names and the SASL QoP names.
func ParseProtection(s string) (Protection, error) {
	switch strings.ToLower(s) {
	case "authentication", "auth":
		return Authentication, nil
	case "integrity", "auth-int":
		return Integrity, nil
	case "privacy", "auth-conf":
		return Privacy, nil
	}
	return 0, fmt.Errorf("sasl: unknown protection %q (want authentication, integrity or privacy)", s)
}
