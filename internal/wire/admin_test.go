package wire

import (
	"errors"
	"testing"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
)

func TestAdminNames(t *testing.T) {
	for _, ok := range []string{"t", "ns:t", "a_b-c.d", "default:x", "hbase:meta", "T9"} {
		if err := CheckTableName(ok); err != nil {
			t.Errorf("CheckTableName(%q) = %v; want nil", ok, err)
		}
	}
	for _, bad := range []string{"", ":", "ns:", ":t", "-t", ".t", "a b", "n-s:t", "t/x", "é", "a:b:c"} {
		if err := CheckTableName(bad); !errors.Is(err, hberr.ErrInvalidName) {
			t.Errorf("CheckTableName(%q) = %v; want ErrInvalidName", bad, err)
		}
	}
	for _, bad := range []string{"", ".f", "a:b", "a\nb"} {
		if err := CheckFamilyName(bad); !errors.Is(err, hberr.ErrInvalidName) {
			t.Errorf("CheckFamilyName(%q) = %v; want ErrInvalidName", bad, err)
		}
	}
	if ns, q, err := SplitTableName("t"); err != nil || ns != "default" || q != "t" {
		t.Errorf("SplitTableName(t) = %q, %q, %v; want default, t", ns, q, err)
	}
	if got := TableNameString(&pb.TableName{Namespace: []byte("default"), Qualifier: []byte("t")}); got != "t" {
		t.Errorf("TableNameString(default:t) = %q; want t", got)
	}
}

func TestRegionNames(t *testing.T) {
	name := []byte("ns:t,a,b,1700000000000.0123456789abcdef0123456789abcdef.")
	if tb, start, ok := ParseRegionName(name); !ok || tb != "ns:t" || string(start) != "a,b" {
		t.Fatalf("ParseRegionName = %q, %q, %v; want ns:t, \"a,b\"", tb, start, ok)
	}
	if got := EncodedRegionName(name); got != "0123456789abcdef0123456789abcdef" {
		t.Fatalf("EncodedRegionName = %q", got)
	}
	if got := EncodedRegionName([]byte("hbase:meta,,1")); got != "1588230740" {
		t.Fatalf("EncodedRegionName(meta) = %q", got)
	}
	if _, _, ok := ParseRegionName([]byte("0123456789abcdef0123456789abcdef")); ok {
		t.Fatal("an encoded name parsed as a full name")
	}
}

func TestProcedureResult(t *testing.T) {
	class, msg := "org.apache.hadoop.hbase.TableExistsException", "t"
	resp := &pb.GetProcedureResultResponse{State: pb.GetProcedureResultResponse_FINISHED.Enum(),
		Exception: &pb.ForeignExceptionMessage{GenericException: &pb.GenericExceptionMessage{ClassName: &class, Message: &msg}}}
	st, err := ParseProcedureResult(resp)
	if st != ProcedureFinished || !errors.Is(err, hberr.ErrTableExists) || !errors.Is(err, hberr.ErrDoNotRetry) {
		t.Fatalf("ParseProcedureResult = %v, %v; want finished, ErrTableExists", st, err)
	}
	if st, err := ParseProcedureResult(&pb.GetProcedureResultResponse{State: pb.GetProcedureResultResponse_RUNNING.Enum()}); st != ProcedureRunning || err != nil {
		t.Fatalf("running = %v, %v", st, err)
	}
}

func TestRegionNameOf(t *testing.T) {
	info := &pb.RegionInfo{TableName: &pb.TableName{Namespace: []byte("ns"), Qualifier: []byte("t")}, StartKey: []byte("a,b"), RegionId: new(uint64(42))}
	name := RegionNameOf(info)
	tb, start, ok := ParseRegionName(name)
	if !ok || tb != "ns:t" || string(start) != "a,b" || len(EncodedRegionName(name)) != 32 {
		t.Fatalf("RegionNameOf = %q: table %q start %q ok %v", name, tb, start, ok)
	}
	info.ReplicaId = new(int32(1))
	if r := RegionNameOf(info); string(r[:len("ns:t,a,b,42_0001.")]) != "ns:t,a,b,42_0001." {
		t.Fatalf("replica 1 = %q", r)
	}
	meta := &pb.RegionInfo{TableName: &pb.TableName{Namespace: []byte("hbase"), Qualifier: []byte("meta")}, RegionId: new(uint64(1))}
	if got := string(RegionNameOf(meta)); got != "hbase:meta,,1" {
		t.Fatalf("meta = %q", got)
	}
}
