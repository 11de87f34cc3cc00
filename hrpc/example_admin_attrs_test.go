package hrpc_test

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/go-hbase/hbase/hrpc"
)

func ExampleNewTableDescriptor_attributes() {
	// The attributes the HBase shell names are typed options; what they send is HBase's
	// attributes (AllAttributes), which DescribeTable reads back into the same fields.
	desc, err := hrpc.NewTableDescriptor("shop:orders",
		hrpc.WithFamily("o", hrpc.TTL(30*24*time.Hour), hrpc.KeepDeleted(hrpc.KeepDeletedTTL),
			hrpc.BlockCache(false), hrpc.ReplicationScope(1)),
		hrpc.MaxFileSize(10<<30), hrpc.SplitEnabled(false), hrpc.TableDurability(hrpc.AsyncWAL),
		hrpc.WithCoprocessor(hrpc.Coprocessor{Class: "org.example.Audit", Properties: map[string]string{"level": "2"}}))
	if err != nil {
		fmt.Println(err)
		return
	}
	attrs := desc.AllAttributes()
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		fmt.Printf("%s => %s\n", k, attrs[k])
	}
	fam := desc.Family("o").AllAttributes()
	for _, k := range slices.Sorted(maps.Keys(fam)) {
		fmt.Printf("o: %s => %s\n", k, fam[k])
	}
	// Output:
	// DURABILITY => ASYNC_WAL
	// MAX_FILESIZE => 10737418240
	// SPLIT_ENABLED => false
	// coprocessor$1 => |org.example.Audit|1073741823|level=2
	// o: BLOCKCACHE => false
	// o: KEEP_DELETED_CELLS => TTL
	// o: REPLICATION_SCOPE => 1
	// o: TTL => 2592000
}
