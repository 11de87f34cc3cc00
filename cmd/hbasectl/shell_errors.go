package main

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/go-hbase/hbase/hberr"
)

// javaClass matches a Java class name in a server's message (org.apache...FooException:),
// which the shell's users do not need to read.
var javaClass = regexp.MustCompile(`\b(?:[a-z][a-z0-9_]*\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)\b:?\s*`)

// shellMessage says what went wrong in the shell's terms: what was named and what is wrong
// with it, without Java class names or the client's option names.
func shellMessage(err error) string {
	name := ""
	var op *hberr.OpError
	var ae *hberr.AdminError
	switch {
	case errors.As(err, &op):
		name = op.Table
	case errors.As(err, &ae):
		name = ae.Name
	}
	quoted := ""
	if name != "" {
		quoted = name + " "
	}
	var unreach *unreachableError
	var usage *usageError
	switch {
	case errors.As(err, &unreach):
		return unreach.Error()
	case errors.As(err, &usage):
		return usage.Error()
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer within the command's deadline (-timeout)"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, hberr.ErrTableNotFound):
		return "Table " + quoted + "does not exist"
	case errors.Is(err, hberr.ErrTableExists):
		return "Table " + quoted + "already exists"
	case errors.Is(err, hberr.ErrTableNotDisabled):
		return "Table " + quoted + "is enabled: disable it first"
	case errors.Is(err, hberr.ErrTableDisabled):
		return "Table " + quoted + "is disabled"
	case errors.Is(err, hberr.ErrNoSuchFamily):
		return "Unknown column family" + remoteDetail(err)
	case errors.Is(err, hberr.ErrNamespaceNotFound):
		return "Unknown namespace " + name
	case errors.Is(err, hberr.ErrNamespaceExists):
		return "Namespace " + quoted + "already exists"
	case errors.Is(err, hberr.ErrNamespaceNotEmpty):
		return "Namespace " + quoted + "is not empty: drop its tables first"
	case errors.Is(err, hberr.ErrSnapshotNotFound):
		return "Snapshot " + quoted + "does not exist"
	case errors.Is(err, hberr.ErrSnapshotExists):
		return "Snapshot " + quoted + "already exists"
	case errors.Is(err, hberr.ErrRegionNotFound):
		return "Region " + quoted + "does not exist"
	case errors.Is(err, hberr.ErrRSGroupNotFound):
		return "RSGroup " + quoted + "does not exist"
	case errors.Is(err, hberr.ErrRSGroupExists):
		return "RSGroup " + quoted + "already exists"
	case errors.Is(err, hberr.ErrServerNotFound):
		return "No live region server " + name
	case errors.Is(err, hberr.ErrPeerNotFound) && ae != nil && strings.Contains(ae.Op, "ReplicationPeer"):
		return "Replication peer " + quoted + "does not exist"
	case errors.Is(err, hberr.ErrInvalidName):
		return "Illegal name " + name + remoteDetail(err)
	case errors.Is(err, hberr.ErrNotSupported):
		return notSupportedMessage(err)
	}
	msg := err.Error()
	var re *hberr.RemoteError
	if errors.As(err, &re) && re.Message != "" {
		msg = re.Message
	}
	msg = strings.TrimPrefix(msg, "hbase: ")
	return strings.TrimSpace(javaClass.ReplaceAllString(msg, ""))
}

// remoteDetail is ": " and the server's message, when there is one.
func remoteDetail(err error) string {
	var re *hberr.RemoteError
	if errors.As(err, &re) && re.Message != "" {
		return ": " + strings.TrimSpace(javaClass.ReplaceAllString(re.Message, ""))
	}
	return ""
}

// notSupportedMessage keeps what the library says of a feature the cluster does not serve
// (which often says how to switch it on), and the server's words, without the Go call's name
// or Java class names.
func notSupportedMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, hberr.ErrNotSupported.Error()); i >= 0 {
		msg = msg[i:]
	}
	return strings.TrimSpace(javaClass.ReplaceAllString(msg, ""))
}
