// Package doc is a document layer on HBase: JSON documents stored one per row, written, read
// and changed atomically with HBase's row atomicity, with secondary indexes the client keeps.
// A Collection is a table and a column family; a document's id is its row key.
//
//	users, err := doc.Open(client, "users", "d", doc.WithIndex("by-city", ".address.city"))
//	if err != nil {
//		return err
//	}
//	if _, err := users.Insert(ctx, "alice", map[string]any{
//		"name":    "Alice",
//		"address": map[string]any{"city": "Paris"},
//		"tags":    []any{"admin"},
//	}); err != nil {
//		return err // hberr.ErrDocumentExists if alice has one
//	}
//	// One atomic row mutation; reads only the cells the ops touch.
//	if _, err := users.Update(ctx, "alice", []doc.Op{
//		doc.Set(".address.zip", "75001"),
//		doc.Append(".tags", "ops"),
//		doc.Increment(".logins", 1),
//	}); err != nil {
//		return err
//	}
//	for d, err := range users.Find(ctx, doc.Eq(".address.city", "Paris"), doc.Project(".name")) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(d.ID, d.Fields["name"])
//	}
//
// # Documents
//
// A document is a JSON object. In Go its canonical form is a map[string]any whose values are
// nil, bool, int64, float64, string, []any and map[string]any: what Get returns, what
// ParseJSON makes of JSON text (an integer that fits is an int64, every other number a
// float64), and what MarshalJSON writes back to the same value (a float64 keeps a fraction or
// an exponent: 1.0, -0.0). Writes also take structs, with fields named by their `doc` tag
// (`doc:"name,omitempty"`, `doc:"-"`), else their `json` tag, else their Go name, and any
// value encoding/json would map the same way (pointers, slices, arrays, maps, embedded
// structs, encoding.TextMarshaler); Document.Decode maps a document back, exactly: what
// was stored is what is read.
//
// # Storage
//
// Each document is flattened into cells of its row (key-flattening): every scalar, every
// object and every array has a cell whose qualifier is its full path (".address.city",
// ".tags[0]", `.["a.b"]`: ParsePath's syntax, jq's) and whose value is a type tag and the
// value (numbers in a byte order that sorts as their values, so that ranges are byte ranges);
// an array's cell holds its length, so that an array that shrinks leaves no stale element,
// and an empty object or array is a cell of its own. One more cell, "#v", holds the
// document's version, the timestamp of its last write and its size. docs/documents.md
// specifies the encoding byte by byte.
//
// # Writes
//
// Every write reads the version cell (and what else it needs), then applies its cells with
// one CheckAndMutate conditional on the version cell it read: two writers of one document
// are serialized, and neither loses the other's change (the one that finds the document
// changed reads it again and tries again, or, with IfVersion, fails with
// hberr.ErrVersionConflict). A write's cells carry a timestamp above its predecessor's, and
// its deletes stop one below it, so a write never masks its own puts or a later write's. A
// document over a limit (depth, qualifier size, row size: Limits) is refused before anything
// is sent; a write is all of its cells or none.
//
// # Queries and indexes
//
// Find returns the documents a condition (Eq, Lt, Between, HasPrefix, Exists, Contains,
// And, Or) matches, scanning the collection with the condition pushed down as HBase filters
// where they can say it, or, when an index (WithIndex) serves it, scanning the index's rows
// of the condition's values and reading those documents. An index row is the index's name,
// the value in the same byte order, and the id.
//
// Index rows live in another table, so a write is not atomic with them: it writes the rows
// of the document's new values first, then the document, then removes the rows of its old
// values. A write that stops in between leaves rows of values the document does not have,
// never a value without its row: reads check each document they find through an index and
// skip it when its value no longer matches, and RepairIndex removes such rows (and adds the
// rows of documents written without the index). docs/documents.md has the consistency model.
//
// Errors are a *hberr.DocError (operation, collection, id, path) wrapping the document
// layer's sentinels (hberr.ErrDocumentExists, hberr.ErrDocumentNotFound,
// hberr.ErrVersionConflict, hberr.ErrDocumentLimit with a *hberr.DocLimitError,
// hberr.ErrInvalidDocument, hberr.ErrInvalidPath, hberr.ErrInvalidUpdate,
// hberr.ErrInvalidQuery, hberr.ErrIndexNotFound) or the client's errors.
//
// # Stability
//
// This package is part of go-hbase's stable API: hbase, admin, bufwriter, parallelscan,
// kerberos, doc, hrpc, hberr, hbasetrace, hbasetest, hbasetest/faultnet and fakehbase. Before
// v1.0.0 a minor version (v0.X.0) may change the API of the stable packages; CHANGELOG.md
// lists every change with what to use instead; a patch version (v0.X.Y) never changes it.
// The lower layers (region, zk, sasl, cipher) may change in any minor version. internal/...
// is not API.
package doc
