package hberr

import "strings"

// descriptorStarts are the texts with which HBase's servers begin the dump of a table
// descriptor (TableDescriptor.toString) inside an exception's message: a
// NoSuchColumnFamilyException ends "... in table 't', {TABLE_ATTRIBUTES => {...}}, {NAME =>
// 'f', ...}", several hundred characters a family that tell nobody why their call failed.
var descriptorStarts = []string{", {TABLE_ATTRIBUTES => ", ", {NAME => '", " {TABLE_ATTRIBUTES => "}

// trimMessage drops a table descriptor dump from a server's message, keeping what names the
// table, family and region; the whole text stays in RemoteError.StackTrace.
func trimMessage(msg string) string {
	cut := len(msg)
	for _, s := range descriptorStarts {
		if i := strings.Index(msg, s); i >= 0 && i < cut {
			cut = i
		}
	}
	if cut == len(msg) {
		return msg
	}
	return strings.TrimRight(msg[:cut], " ,")
}
