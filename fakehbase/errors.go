package fakehbase

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// javaError is an exception the fake answers with: a Java class and its message.
type javaError struct {
	class Exception
	msg   string
	// host and port of a RegionMovedException's new server.
	host string
	port int
}

func (e *javaError) Error() string { return string(e.class) + ": " + e.msg }

func jerr(class Exception, format string, args ...any) *javaError {
	return &javaError{class: class, msg: fmt.Sprintf(format, args...)}
}

// unsupported is the answer to anything the fake does not implement: an
// UnsupportedOperationException that names it (hberr.ErrNotSupported and ErrDoNotRetry),
// never a guess.
func unsupported(format string, args ...any) *javaError {
	return jerr(notSupported, "fakehbase: "+format+" is not supported", args...)
}

// badRequest is the answer to a request HBase would refuse as malformed.
func badRequest(format string, args ...any) *javaError {
	return jerr(DoNotRetry, format, args...)
}

// asJava turns any error of a handler into the exception sent back: a *javaError as it is,
// anything else as an IOException.
func asJava(err error) *javaError {
	if je, ok := err.(*javaError); ok {
		return je
	}
	return jerr(IO, "fakehbase: %v", err)
}

// response is the exception as an RPC's ExceptionResponse: class, a stack trace whose first
// line is "class: message" (what clients read the message from) and HBase's flags.
func (e *javaError) response() *pb.ExceptionResponse {
	r := &pb.ExceptionResponse{
		ExceptionClassName: proto.String(string(e.class)),
		StackTrace:         proto.String(e.trace()),
		DoNotRetry:         proto.Bool(exceptions[e.class].doNotRetry),
	}
	if e.host != "" {
		r.Hostname, r.Port = proto.String(e.host), proto.Int32(int32(e.port))
	}
	return r
}

// pair is the exception as a MultiResponse action's or region's NameBytesPair (class, stack
// trace).
func (e *javaError) pair() *pb.NameBytesPair {
	return &pb.NameBytesPair{Name: proto.String(string(e.class)), Value: []byte(e.trace())}
}

func (e *javaError) trace() string {
	var b strings.Builder
	b.WriteString(string(e.class))
	if e.msg != "" {
		b.WriteString(": ")
		b.WriteString(e.msg)
	}
	b.WriteString("\n\tat org.apache.hadoop.hbase.fakehbase(fakehbase.go)\n")
	return b.String()
}
