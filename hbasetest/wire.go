package hbasetest

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// encodeBytes writes a byte string as one protocol word: hex, or "-" when empty.
func encodeBytes(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	return hex.EncodeToString(b)
}

// decodeBytes reads a word written by encodeBytes.
func decodeBytes(s string) ([]byte, error) {
	if s == "-" {
		return []byte{}, nil
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("bad hex %q: %w", truncate(s, 40), err)
	}
	return b, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// record is one "kind=f1,f2,..." word of an answer.
type record struct {
	kind   string
	fields []string
}

// parseRecords splits an answer's words into records of one kind, checking the field count.
func parseRecords(words []string, kind string, nfields int) ([]record, error) {
	var out []record
	for _, w := range words {
		k, rest, ok := strings.Cut(w, "=")
		if !ok || k != kind {
			continue
		}
		f := strings.Split(rest, ",")
		if len(f) != nfields {
			return nil, fmt.Errorf("hbasetest: %s record %q has %d fields, want %d", kind, truncate(w, 80), len(f), nfields)
		}
		out = append(out, record{kind: k, fields: f})
	}
	return out, nil
}

func parseServer(f []string, index int) (Server, error) {
	code, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return Server{}, fmt.Errorf("hbasetest: bad start code %q", f[1])
	}
	addr := f[0]
	if addr == "-" {
		addr = ""
	}
	return Server{Index: index, Addr: addr, StartCode: code, Live: f[2] == "live" || f[2] == "active"}, nil
}

func parseStatus(words []string) (*Status, error) {
	st := &Status{Master: Server{Index: -1}}
	ms, err := parseRecords(words, "master", 3)
	if err != nil {
		return nil, err
	}
	if len(ms) == 1 {
		if st.Master, err = parseServer(ms[0].fields, -1); err != nil {
			return nil, err
		}
	}
	rss, err := parseRecords(words, "rs", 4)
	if err != nil {
		return nil, err
	}
	for _, r := range rss {
		idx, err := strconv.Atoi(r.fields[0])
		if err != nil {
			return nil, fmt.Errorf("hbasetest: bad server index %q", r.fields[0])
		}
		s, err := parseServer(r.fields[1:], idx)
		if err != nil {
			return nil, err
		}
		st.RegionServers = append(st.RegionServers, s)
	}
	return st, nil
}

func parseRegions(words []string) ([]Region, error) {
	recs, err := parseRecords(words, "region", 8)
	if err != nil {
		return nil, err
	}
	out := make([]Region, 0, len(recs))
	for _, r := range recs {
		f := r.fields
		reg := Region{Table: f[0], EncodedName: f[1]}
		if reg.Name, err = decodeBytes(f[2]); err != nil {
			return nil, err
		}
		if reg.StartKey, err = decodeBytes(f[3]); err != nil {
			return nil, err
		}
		if reg.EndKey, err = decodeBytes(f[4]); err != nil {
			return nil, err
		}
		if reg.Server, err = strconv.Atoi(f[5]); err != nil {
			return nil, fmt.Errorf("hbasetest: bad server index %q", f[5])
		}
		if f[6] != "-" {
			reg.Addr = f[6]
		}
		if reg.StartCode, err = strconv.ParseInt(f[7], 10, 64); err != nil {
			return nil, fmt.Errorf("hbasetest: bad start code %q", f[7])
		}
		out = append(out, reg)
	}
	return out, nil
}

func parseReplicas(words []string) ([]Replica, error) {
	recs, err := parseRecords(words, "replica", 13)
	if err != nil {
		return nil, err
	}
	out := make([]Replica, 0, len(recs))
	for _, r := range recs {
		f := r.fields
		reg, err := parseRegions([]string{"region=" + strings.Join(f[:5], ",") + "," + strings.Join(f[6:9], ",")})
		if err != nil {
			return nil, err
		}
		rep := Replica{Region: reg[0]}
		if rep.ReplicaID, err = strconv.Atoi(f[5]); err != nil || rep.ReplicaID < 0 {
			return nil, fmt.Errorf("hbasetest: bad replica id %q", f[5])
		}
		if f[9] != "-" {
			rep.State = f[9]
		}
		if rep.StateServer, err = strconv.Atoi(f[10]); err != nil {
			return nil, fmt.Errorf("hbasetest: bad server index %q", f[10])
		}
		if rep.Serving, err = strconv.Atoi(f[11]); err != nil {
			return nil, fmt.Errorf("hbasetest: bad server index %q", f[11])
		}
		switch f[12] {
		case "reads":
			rep.ReadsEnabled = true
		case "-":
		default:
			return nil, fmt.Errorf("hbasetest: bad reads flag %q", f[12])
		}
		out = append(out, rep)
	}
	return out, nil
}

func parseCells(words []string) ([]Cell, error) {
	recs, err := parseRecords(words, "cell", 5)
	if err != nil {
		return nil, err
	}
	out := make([]Cell, 0, len(recs))
	for _, r := range recs {
		f := r.fields
		var c Cell
		if c.Row, err = decodeBytes(f[0]); err != nil {
			return nil, err
		}
		if c.Family, err = decodeBytes(f[1]); err != nil {
			return nil, err
		}
		if c.Qualifier, err = decodeBytes(f[2]); err != nil {
			return nil, err
		}
		if c.Timestamp, err = strconv.ParseInt(f[3], 10, 64); err != nil {
			return nil, fmt.Errorf("hbasetest: bad timestamp %q", f[3])
		}
		if c.Value, err = decodeBytes(f[4]); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}
