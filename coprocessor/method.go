package coprocessor

import (
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Method names a method of a coprocessor endpoint's service as the server registered it.
type Method struct {
	// Service is the service's name: its full protobuf name ("example.RowCountService"), or
	// its bare name for a service of HBase's own package hbase.pb ("AggregateService",
	// "VisibilityLabelsService"), as the Java client names them.
	Service string
	// Name is the method's name as the .proto declares it ("getRowCount", "GetSum").
	Name string
}

// hbaseServicePackage is the package whose services HBase names without it
// (CoprocessorRpcUtils.getServiceName).
const hbaseServicePackage = "hbase.pb."

// MethodOf returns the Method of a method of a service in a .proto file compiled into Go
// (protoc-gen-go keeps the services in the file's descriptor):
//
//	m := coprocessor.MethodOf(examplepb.File_rowcount_proto.Services().
//		ByName("RowCountService").Methods().ByName("getRowCount"))
//
// It names the service as the Java client does: by its full name, without the package for
// HBase's own (package hbase.pb).
//
//snippets:text m := coprocessor.MethodOf
func MethodOf(md protoreflect.MethodDescriptor) Method {
	service := string(md.Parent().FullName())
	if rest, ok := strings.CutPrefix(service, hbaseServicePackage); ok && !strings.Contains(rest, ".") {
		service = rest
	}
	return Method{Service: service, Name: string(md.Name())}
}

// String returns "Service.Name", how errors and hooks name a call of the method.
func (m Method) String() string { return m.Service + "." + m.Name }
