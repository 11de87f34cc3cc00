package doc

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/cputime"
)

// The layer's cost against the raw calls of the same cells, in the same run, on the package's
// real cluster (skipped without one):
//
//	flock /tmp/jvm.lock env GOWORK=off go test -count=1 -run '^$' -bench . -benchmem -benchtime=3000x ./doc
//
// Each pair has three sub-benchmarks: doc and raw (ns/op, B/op and allocs/op of each alone)
// and ratio, which alternates blocks of 100 operations of each side and reports each side's
// latency and CPU time per operation (this process's, getrusage) and their ratios.
// docs/documents.md (Performance) has the table.

// benchProfile is the benchmarks' document: a user profile of 26 cells.
var benchProfile = map[string]any{
	"name": "Alice Martin", "email": "alice@example.com", "age": 34, "score": 4.75,
	"created": "2026-01-02T03:04:05Z", "active": true, "manager": nil, "logins": 1000,
	"address": map[string]any{"street": "1 rue de Rivoli", "city": "Paris", "zip": "75001",
		"geo": []any{48.8566, 2.3522}},
	"tags":  []any{"admin", "ops", "beta"},
	"prefs": map[string]any{"lang": "fr", "tz": "Europe/Paris", "notify": map[string]any{"email": true, "sms": false}},
}

type benchPair struct {
	doc, raw func(ctx context.Context) error
	// names of the two sides, "doc" and "raw" when empty.
	names [2]string
}

func benchClient(b *testing.B) (*hbase.Client, func(families []string) string) {
	be := benchBackend(b)
	return be.client, func(fams []string) string { return be.table(b, fams) }
}

func runPair(b *testing.B, p benchPair) {
	ctx := context.Background()
	if p.names[0] == "" {
		p.names = [2]string{"doc", "raw"}
	}
	for _, side := range []struct {
		name string
		op   func(context.Context) error
	}{{p.names[0], p.doc}, {p.names[1], p.raw}} {
		b.Run(side.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := side.op(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("ratio", func(b *testing.B) {
		const block = 100
		var wall, cpu [2]time.Duration
		var n [2]int
		ops := [2]func(context.Context) error{p.doc, p.raw}
		b.ResetTimer()
		for done := 0; done < b.N; done += block {
			for s := range 2 {
				c0, _ := cputime.Self()
				t0 := time.Now()
				for range block {
					if err := ops[s](ctx); err != nil {
						b.Fatal(err)
					}
				}
				wall[s] += time.Since(t0)
				c1, _ := cputime.Self()
				cpu[s] += c1 - c0
				n[s] += block
			}
		}
		per := func(d time.Duration, s int) float64 { return float64(d.Microseconds()) / float64(n[s]) }
		b.ReportMetric(per(wall[0], 0), p.names[0]+"-µs/op")
		b.ReportMetric(per(wall[1], 1), p.names[1]+"-µs/op")
		b.ReportMetric(per(cpu[0], 0), p.names[0]+"-cpu-µs/op")
		b.ReportMetric(per(cpu[1], 1), p.names[1]+"-cpu-µs/op")
		b.ReportMetric(float64(wall[0])/float64(wall[1]), "latency-ratio")
		b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "cpu-ratio")
	})
}

func benchCollection(b *testing.B, opts ...Option) (*Collection, *hbase.Client) {
	client, table := benchClient(b)
	c, err := Open(client, table([]string{"d"}), "d", append([]Option{WithIndexTable(table([]string{"d"}), "d")}, opts...)...)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := c.Insert(context.Background(), "alice", benchProfile); err != nil {
		b.Fatal(err)
	}
	return c, client
}

// BenchmarkGet: a whole document against a Get of its row's family (the same cells).
func BenchmarkGet(b *testing.B) {
	c, client := benchCollection(b)
	runPair(b, benchPair{
		doc: func(ctx context.Context) error { _, err := c.Get(ctx, "alice"); return err },
		raw: func(ctx context.Context) error {
			g, err := hrpc.NewGet(c.table, []byte("alice"), hrpc.Families(c.family))
			if err == nil {
				_, err = client.Get(ctx, g)
			}
			return err
		},
	})
}

// BenchmarkGetProjection: two paths of a document against a Get of their cells by column.
func BenchmarkGetProjection(b *testing.B) {
	c, client := benchCollection(b)
	runPair(b, benchPair{
		doc: func(ctx context.Context) error {
			_, err := c.Get(ctx, "alice", Project(".address.city", ".name"))
			return err
		},
		raw: func(ctx context.Context) error {
			g, err := hrpc.NewGet(c.table, []byte("alice"), hrpc.Columns(c.family, metaQualifierBytes, []byte(".address.city"), []byte(".name")))
			if err == nil {
				_, err = client.Get(ctx, g)
			}
			return err
		},
	})
}

// BenchmarkGetProjectionObject: the subtree of an object (.address, 6 cells), which the
// layer reads as columns, finds an object, and reads again with a prefix filter, against one
// Get with that filter.
func BenchmarkGetProjectionObject(b *testing.B) {
	c, client := benchCollection(b)
	runPair(b, benchPair{
		doc: func(ctx context.Context) error {
			_, err := c.Get(ctx, "alice", Project(".address"))
			return err
		},
		raw: func(ctx context.Context) error {
			g, err := hrpc.NewGet(c.table, []byte("alice"), hrpc.Families(c.family),
				hrpc.WithFilter(&hrpc.MultipleColumnPrefixFilter{Prefixes: [][]byte{metaQualifierBytes, []byte(".address")}}))
			if err == nil {
				_, err = client.Get(ctx, g)
			}
			return err
		},
	})
}

// BenchmarkPrefixFilter: no layer, the server's side of a selection: a Get of three cells by
// a prefix filter (what the layer sends for a subtree) against a Get of the same cells by
// column.
func BenchmarkPrefixFilter(b *testing.B) {
	c, client := benchCollection(b)
	get := func(opts ...hrpc.GetOption) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			g, err := hrpc.NewGet(c.table, []byte("alice"), opts...)
			if err == nil {
				_, err = client.Get(ctx, g)
			}
			return err
		}
	}
	runPair(b, benchPair{names: [2]string{"filter", "columns"},
		doc: get(hrpc.Families(c.family), hrpc.WithFilter(&hrpc.MultipleColumnPrefixFilter{
			Prefixes: [][]byte{metaQualifierBytes, []byte(".address.city"), []byte(".name")}})),
		raw: get(hrpc.Columns(c.family, metaQualifierBytes, []byte(".address.city"), []byte(".name"))),
	})
}

// updateRaw reads the cells an update of .address.city and .logins reads, and writes the ones
// it writes: with a Put, or with a CheckAndMutate on the version cell (cas).
func updateRaw(c *Collection, client *hbase.Client, cas bool) func(ctx context.Context) error {
	i := 0
	return func(ctx context.Context) error {
		i++
		g, err := hrpc.NewGet(c.table, []byte("alice"), hrpc.Columns(c.family, metaQualifierBytes,
			[]byte(".address"), []byte(".address.city"), []byte(".logins")))
		if err != nil {
			return err
		}
		res, err := client.Get(ctx, g)
		if err != nil {
			return err
		}
		var old []byte
		for _, cell := range res.Cells {
			if string(cell.Qualifier) == metaQualifier {
				old = cell.Value
			}
		}
		m, _ := decodeMeta(old)
		m.version++
		put, err := hrpc.NewPut(c.table, []byte("alice"),
			hrpc.Value(c.family, []byte(".address.city"), appendScalar(nil, fmt.Sprint("city", i%10))),
			hrpc.Value(c.family, []byte(".logins"), appendScalar(nil, int64(i))),
			hrpc.Value(c.family, metaQualifierBytes, m.encode()))
		if err != nil {
			return err
		}
		if !cas {
			_, err = client.Put(ctx, put)
			return err
		}
		cm, err := hrpc.NewCheckAndMutate(hrpc.IfValue(c.family, metaQualifierBytes, hrpc.Equal, old), put)
		if err != nil {
			return err
		}
		_, err = client.CheckAndMutate(ctx, cm)
		return err
	}
}

func updateDoc(c *Collection) func(ctx context.Context) error {
	i := 0
	return func(ctx context.Context) error {
		i++
		_, err := c.Update(ctx, "alice", []Op{Set(".address.city", fmt.Sprint("city", i%10)), Increment(".logins", 1)})
		return err
	}
}

// BenchmarkUpdate: a path update (Set and Increment) against a Get and a Put of the same cells.
func BenchmarkUpdate(b *testing.B) {
	c, client := benchCollection(b)
	runPair(b, benchPair{doc: updateDoc(c), raw: updateRaw(c, client, false)})
}

// BenchmarkUpdateCAS: the same update against a Get and a CheckAndMutate of the same cells.
func BenchmarkUpdateCAS(b *testing.B) {
	c, client := benchCollection(b)
	runPair(b, benchPair{doc: updateDoc(c), raw: updateRaw(c, client, true)})
}

// BenchmarkIndexQuery: the documents of one value (20 of 1000) through an index, against a
// scan of the collection with the condition as a filter.
func BenchmarkIndexQuery(b *testing.B) {
	c, _ := benchCollection(b, WithIndex("city", ".address.city"))
	ctx := context.Background()
	for i := range 1000 {
		d := map[string]any{"name": fmt.Sprint("user", i), "address": map[string]any{"city": fmt.Sprintf("city%02d", i%50)},
			"tags": []any{"a", "b"}, "logins": i}
		if _, err := c.Upsert(ctx, fmt.Sprintf("u%04d", i), d); err != nil {
			b.Fatal(err)
		}
	}
	find := func(opts ...FindOption) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			n := 0
			for _, err := range c.Find(ctx, Eq(".address.city", "city07"), opts...) {
				if err != nil {
					return err
				}
				n++
			}
			if n != 20 {
				return fmt.Errorf("%d documents; want 20", n)
			}
			return nil
		}
	}
	runPair(b, benchPair{doc: find(), raw: find(WithoutIndex())})
}

// benchBackend is the real cluster, or fakehbase with GOHBASE_DOC_BENCH_FAKE=1 (allocations and
// the layer's own CPU without a JVM; its latencies mean nothing).
func benchBackend(b *testing.B) backend {
	if os.Getenv("GOHBASE_DOC_BENCH_FAKE") == "1" {
		return fakeBackend(b)
	}
	return realBackend(b)
}

// BenchmarkDecode: the decoding of the benchmarks' document from its cells, alone (no cluster).
func BenchmarkDecode(b *testing.B) {
	m, err := Canonical(benchProfile)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := flattenObject(Limits{MaxDepth: 32, MaxQualifier: 1024, MaxRowBytes: 1 << 20}, m)
	if err != nil {
		b.Fatal(err)
	}
	row := rowOf("alice", cs, &meta{version: 1})
	b.ReportAllocs()
	for b.Loop() {
		var d decoder
		if _, _, _, err := d.row(row); err != nil {
			b.Fatal(err)
		}
	}
}
