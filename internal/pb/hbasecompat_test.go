package pb_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// TestMatchesHBaseProtos compares every message, field and enum of our .proto
// files with HBase's own .proto files: same full names and files, same field
// names, numbers, types, labels, packing and defaults, complete enums, and no
// dropped required field. It needs protoc and HBase's hbase-protocol-shaded
// .proto files, e.g.
//
//	HBASE_PROTO_DIR=/tmp/hsrc/hbase-protocol-shaded go test ./pb -run MatchesHBase
//
// HBASE_PROTO_DIR may be a list (the OS's path list separator), searched in
// order: the endpoints' files are in hbase-endpoint (Aggregate.proto) and
// hbase-protocol (VisibilityLabels.proto), after hbase-protocol-shaded.
func TestMatchesHBaseProtos(t *testing.T) {
	hbaseDir := os.Getenv("HBASE_PROTO_DIR")
	if hbaseDir == "" {
		t.Skip("HBASE_PROTO_DIR not set")
	}
	if _, err := exec.LookPath("protoc"); err != nil {
		t.Skip("protoc not installed")
	}
	tmp := t.TempDir()

	// HBase imports protobuf's Any from its shaded path.
	anyDir := filepath.Join(tmp, "inc", "org/apache/hbase/thirdparty/google/protobuf")
	if err := os.MkdirAll(anyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := (os.WriteFile(filepath.Join(anyDir, "any.proto"), []byte(
		"syntax = \"proto3\";\npackage google.protobuf;\n"+
			"message Any { string type_url = 1; bytes value = 2; }\n"), 0o644)); err != nil {
		t.Fatal(err)
	}

	ours, err := filepath.Glob("proto/*.proto")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ours {
		names = append(names, filepath.Base(p))
	}
	oursFiles := compileProtos(t, filepath.Join(tmp, "ours.pb"), []string{"proto"}, names)
	// Every file of HBase's, in every directory of the list: a file of ours that HBase does
	// not have (the messages of one area, AdminOps.proto...) holds messages HBase has in
	// other files.
	hbaseDirs := filepath.SplitList(hbaseDir)
	var hbaseNames []string
	hbaseHas := make(map[string]bool)
	for _, dir := range hbaseDirs {
		found, err := filepath.Glob(filepath.Join(dir, "*.proto"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range found {
			if n := filepath.Base(p); !hbaseHas[n] {
				hbaseHas[n] = true
				hbaseNames = append(hbaseNames, n)
			}
		}
	}
	hbaseFiles := compileProtos(t, filepath.Join(tmp, "hbase.pb"), append(hbaseDirs, filepath.Join(tmp, "inc")), hbaseNames)

	checked := 0
	oursFiles.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Messages().Len(); i++ {
			om := fd.Messages().Get(i)
			d, err := hbaseFiles.FindDescriptorByName(om.FullName())
			if err != nil {
				t.Errorf("message %s: not in HBase", om.FullName())
				continue
			}
			hm := d.(protoreflect.MessageDescriptor)
			if hbaseHas[fd.Path()] && hm.ParentFile().Path() != fd.Path() {
				t.Errorf("message %s: in %s, HBase has it in %s", om.FullName(), fd.Path(), hm.ParentFile().Path())
			}
			compareMessage(t, om, hm)
			checked++
		}
		for i := 0; i < fd.Enums().Len(); i++ {
			oe := fd.Enums().Get(i)
			d, err := hbaseFiles.FindDescriptorByName(oe.FullName())
			if err != nil {
				t.Errorf("enum %s: not in HBase", oe.FullName())
				continue
			}
			compareEnum(t, oe, d.(protoreflect.EnumDescriptor))
		}
		return true
	})
	if checked <= 0 {
		t.Fatalf("checked = %v; want it positive", checked)
	}
	t.Logf("%d top-level messages checked", checked)
}

func compileProtos(t *testing.T, out string, includes, files []string) *protoregistry.Files {
	t.Helper()
	args := []string{"--include_imports", "--descriptor_set_out=" + out}
	for _, inc := range includes {
		args = append(args, "-I", inc)
	}
	args = append(args, files...)
	msg, err := exec.Command("protoc", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("protoc: %s: %v", msg, err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &set); err != nil {
		t.Fatal(err)
	}
	reg, err := protodesc.NewFiles(&set)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func compareEnum(t *testing.T, o, h protoreflect.EnumDescriptor) {
	t.Helper()
	if o.Values().Len() != h.Values().Len() {
		t.Errorf("enum %s: %d values, HBase has %d", o.FullName(), o.Values().Len(), h.Values().Len())
	}
	for i := 0; i < h.Values().Len(); i++ {
		hv := h.Values().Get(i)
		ov := o.Values().ByName(hv.Name())
		if ov == nil || ov.Number() != hv.Number() {
			t.Errorf("enum %s: value %s = %d missing or different", o.FullName(), hv.Name(), hv.Number())
		}
	}
}

func compareMessage(t *testing.T, o, h protoreflect.MessageDescriptor) {
	t.Helper()
	for i := 0; i < o.Fields().Len(); i++ {
		of := o.Fields().Get(i)
		hf := h.Fields().ByNumber(of.Number())
		switch {
		case hf == nil:
			t.Errorf("%s.%s: number %d is not used by HBase", o.FullName(), of.Name(), of.Number())
			continue
		case of.Name() != hf.Name(), of.Kind() != hf.Kind(), of.Cardinality() != hf.Cardinality(),
			of.IsPacked() != hf.IsPacked(), of.IsMap() != hf.IsMap(), of.HasDefault() != hf.HasDefault():
			t.Errorf("%s field %d: ours %s %v %v packed=%v default=%v; HBase %s %v %v packed=%v default=%v",
				o.FullName(), of.Number(),
				of.Name(), of.Cardinality(), of.Kind(), of.IsPacked(), of.HasDefault(),
				hf.Name(), hf.Cardinality(), hf.Kind(), hf.IsPacked(), hf.HasDefault())
			continue
		}
		if of.HasDefault() && of.Default().Interface() != hf.Default().Interface() {
			t.Errorf("%s.%s: default %v, HBase %v", o.FullName(), of.Name(), of.Default(), hf.Default())
		}
		if of.Message() != nil && of.Message().FullName() != hf.Message().FullName() {
			t.Errorf("%s.%s: type %s, HBase %s", o.FullName(), of.Name(), of.Message().FullName(), hf.Message().FullName())
		}
		if of.Enum() != nil && of.Enum().FullName() != hf.Enum().FullName() {
			t.Errorf("%s.%s: enum %s, HBase %s", o.FullName(), of.Name(), of.Enum().FullName(), hf.Enum().FullName())
		}
	}
	for i := 0; i < h.Fields().Len(); i++ {
		hf := h.Fields().Get(i)
		if hf.Cardinality() == protoreflect.Required && o.Fields().ByNumber(hf.Number()) == nil {
			t.Errorf("%s: drops required field %s", o.FullName(), hf.Name())
		}
	}
	for i := 0; i < o.Enums().Len(); i++ {
		oe := o.Enums().Get(i)
		if he := h.Enums().ByName(oe.Name()); he != nil {
			compareEnum(t, oe, he)
		} else {
			t.Errorf("enum %s: not in HBase", oe.FullName())
		}
	}
	for i := 0; i < o.Messages().Len(); i++ {
		om := o.Messages().Get(i)
		if om.IsMapEntry() {
			continue
		}
		if hm := h.Messages().ByName(om.Name()); hm != nil {
			compareMessage(t, om, hm)
		} else {
			t.Errorf("message %s: not in HBase", om.FullName())
		}
	}
}
