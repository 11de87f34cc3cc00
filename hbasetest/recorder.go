package hbasetest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// RecordedRequest is what a region server saw of one request to a table made with
// CreateRecordedTable: a Get, a mutation or the opening of a scan, with what its RPC carried
// as HBase 2.6 gives it to server-side code (RpcServer.getCurrentCall()).
type RecordedRequest struct {
	// Op is "Get", "Scan" (its opening), or the mutation's Java class: "Put", "Delete",
	// "Increment", "Append".
	Op  string
	Row []byte // the row (a scan's start row)
	// HeaderPriority is the RequestHeader's priority, -1 when the request had none;
	// Priority is the one the server gave the call (RpcCall.getPriority), which it derives
	// from the header's or, without one, from the method and table.
	HeaderPriority, Priority int
	// RequestAttributes and ConnectionAttributes are RpcCall.getRequestAttributes and
	// getConnectionAttributes (nil when empty).
	RequestAttributes, ConnectionAttributes map[string][]byte
}

// CreateRecordedTable creates table with one column family and a region observer that records
// every Get, mutation and scan opening on its regions (read them with Recorded). It is for
// tests of what a client puts in its RPCs: priorities, request and connection attributes.
func (c *Cluster) CreateRecordedTable(ctx context.Context, table, family string) error {
	_, err := c.do(ctx, "create-recorded", table, encodeBytes([]byte(family)))
	return err
}

// Recorded returns the requests recorded on table (CreateRecordedTable) so far, oldest first
// (at most the latest 10000); with clear they are dropped once read.
func (c *Cluster) Recorded(ctx context.Context, table string, clear bool) ([]RecordedRequest, error) {
	words := []string{"recorded", table}
	if clear {
		words = append(words, "clear")
	}
	w, err := c.do(ctx, words...)
	if err != nil {
		return nil, err
	}
	if len(w) == 0 {
		return nil, fmt.Errorf("hbasetest: recorded: empty answer")
	}
	n, err := strconv.Atoi(w[0])
	if err != nil || n != len(w)-1 {
		return nil, fmt.Errorf("hbasetest: recorded: bad answer %q", strings.Join(w, " "))
	}
	out := make([]RecordedRequest, 0, n)
	for _, rec := range w[1:] {
		r, err := parseRecorded(rec)
		if err != nil {
			return nil, fmt.Errorf("hbasetest: recorded: %q: %w", rec, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// parseRecorded reads op/row/headerPriority/priority/requestAttrs/connectionAttrs.
func parseRecorded(s string) (RecordedRequest, error) {
	f := strings.Split(s, "/")
	if len(f) != 6 {
		return RecordedRequest{}, fmt.Errorf("%d fields, want 6", len(f))
	}
	var r RecordedRequest
	var err error
	r.Op = f[0]
	if r.Row, err = decodeBytes(f[1]); err != nil {
		return r, err
	}
	if r.HeaderPriority, err = strconv.Atoi(f[2]); err != nil {
		return r, err
	}
	if r.Priority, err = strconv.Atoi(f[3]); err != nil {
		return r, err
	}
	if r.RequestAttributes, err = parseAttrs(f[4]); err != nil {
		return r, err
	}
	r.ConnectionAttributes, err = parseAttrs(f[5])
	return r, err
}

func parseAttrs(s string) (map[string][]byte, error) {
	if s == "." {
		return nil, nil
	}
	m := make(map[string][]byte)
	for kv := range strings.SplitSeq(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("attribute %q without '='", kv)
		}
		name, err := decodeBytes(k)
		if err != nil {
			return nil, err
		}
		val, err := decodeBytes(v)
		if err != nil {
			return nil, err
		}
		m[string(name)] = val
	}
	return m, nil
}
