package hbasetest

import (
	"bytes"
	"strings"
	"testing"
)

func TestBytesRoundTrip(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	for _, b := range [][]byte{nil, {}, {0}, []byte("-"), all} {
		w := encodeBytes(b)
		if strings.ContainsAny(w, " ,\n=") {
			t.Errorf("word %q is not protocol-safe", w)
		}
		got, err := decodeBytes(w)
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("round trip of %x: %x, %v", b, got, err)
		}
	}
	if _, err := decodeBytes("zz"); err == nil {
		t.Error("bad hex accepted")
	}
}

func TestParseAnswers(t *testing.T) {
	st, err := parseStatus(strings.Fields("master=localhost:16000,17,active rs=0,localhost:16020,18,live rs=1,localhost:16021,19,dead"))
	if err != nil {
		t.Fatal(err)
	}
	if !st.Master.Live || st.Master.StartCode != 17 || len(st.RegionServers) != 2 || st.LiveRegionServers() != 1 ||
		st.RegionServers[1].Index != 1 || st.RegionServers[1].Addr != "localhost:16021" {
		t.Errorf("status: %+v", st)
	}
	regs, err := parseRegions(strings.Fields("region=t,abc,742c2c31,-,6d,2,localhost:16022,99 region=t,def,00,6d,-,-1,-,0"))
	if err != nil {
		t.Fatal(err)
	}
	if len(regs) != 2 || string(regs[0].Name) != "t,,1" || len(regs[0].StartKey) != 0 || string(regs[0].EndKey) != "m" ||
		regs[0].Server != 2 || regs[1].Server != -1 || regs[1].Addr != "" {
		t.Errorf("regions: %+v", regs)
	}
	cells, err := parseCells(strings.Fields("cell=00ff,66,-,42,-"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 1 || !bytes.Equal(cells[0].Row, []byte{0, 0xff}) || cells[0].Timestamp != 42 || len(cells[0].Value) != 0 {
		t.Errorf("cells: %+v", cells)
	}
	for _, bad := range []string{"region=t,abc", "cell=zz,66,-,1,-", "rs=x,localhost:1,1,live", "cell=00,66,-,notanumber,-"} {
		_, err1 := parseRegions([]string{bad})
		_, err2 := parseCells([]string{bad})
		_, err3 := parseStatus([]string{bad})
		if err1 == nil && err2 == nil && err3 == nil {
			t.Errorf("%q parsed without error", bad)
		}
	}
}

func TestTailBuffer(t *testing.T) {
	tb := newTailBuffer(3)
	var seen []string
	tb.watch = func(l string) { seen = append(seen, l) }
	tb.Write([]byte("a\nb"))
	tb.Write([]byte("c\nd\ne\nf"))
	if got := tb.String(); got != "bc\nd\ne\nf" { // the last 3 lines and the unfinished one
		t.Errorf("tail = %q", got)
	}
	if strings.Join(seen, ",") != "a,bc,d,e" {
		t.Errorf("watched lines %q", seen)
	}
}

func TestParseRecorded(t *testing.T) {
	r, err := parseRecorded("Put/00ff2c/7/7/616263=0102,74=-/6170=78")
	if err != nil {
		t.Fatal(err)
	}
	if r.Op != "Put" || string(r.Row) != "\x00\xff," || r.HeaderPriority != 7 || r.Priority != 7 ||
		len(r.RequestAttributes) != 2 || string(r.RequestAttributes["abc"]) != "\x01\x02" ||
		len(r.RequestAttributes["t"]) != 0 || string(r.ConnectionAttributes["ap"]) != "x" {
		t.Fatalf("parseRecorded = %+v", r)
	}
	r, err = parseRecorded("Get/61/-1/0/./.")
	if err != nil || r.HeaderPriority != -1 || r.RequestAttributes != nil || r.ConnectionAttributes != nil {
		t.Fatalf("parseRecorded = %+v, %v", r, err)
	}
	for _, bad := range []string{"Get/61/-1/0/.", "Get/6/-1/0/./.", "Get/61/x/0/./.", "Get/61/-1/0/ab/."} {
		if _, err := parseRecorded(bad); err == nil {
			t.Errorf("parseRecorded(%q) accepted", bad)
		}
	}
}

func TestParseReplicas(t *testing.T) {
	reps, err := parseReplicas(strings.Fields("region=t,abc,742c2c31,-,6d,2,localhost:16022,99,- " +
		"replica=t,abc,742c2c31,-,6d,0,2,localhost:16022,99,OPEN,2,2,reads " +
		"replica=t,def,742c2c315f30303031,-,6d,1,0,localhost:16020,98,OPENING,1,-1,- " +
		"replica=t,012,742c2c315f30303032,-,6d,2,-1,-,0,-,-1,-1,-"))
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 3 {
		t.Fatalf("%d replicas: %+v", len(reps), reps)
	}
	p, s, u := reps[0], reps[1], reps[2]
	if p.ReplicaID != 0 || p.EncodedName != "abc" || p.Server != 2 || p.Addr != "localhost:16022" || p.StartCode != 99 ||
		string(p.EndKey) != "m" || p.State != "OPEN" || p.StateServer != 2 || p.Serving != 2 || !p.ReadsEnabled {
		t.Errorf("primary: %+v", p)
	}
	if s.ReplicaID != 1 || string(s.Name) != "t,,1_0001" || s.Server != 0 || s.State != "OPENING" || s.StateServer != 1 ||
		s.Serving != -1 || s.ReadsEnabled {
		t.Errorf("moving secondary: %+v", s)
	}
	if u.ReplicaID != 2 || u.Server != -1 || u.Addr != "" || u.State != "" || u.StateServer != -1 || u.Serving != -1 {
		t.Errorf("unassigned secondary: %+v", u)
	}
	for _, bad := range []string{
		"replica=t,abc,00,-,-,0,0,localhost:1,1,OPEN,0,0",          // 12 fields
		"replica=t,abc,00,-,-,x,0,localhost:1,1,OPEN,0,0,reads",    // replica id
		"replica=t,abc,00,-,-,-1,0,localhost:1,1,OPEN,0,0,reads",   // negative id
		"replica=t,abc,00,-,-,0,0,localhost:1,1,OPEN,0,0,yes",      // reads flag
		"replica=t,abc,zz,-,-,0,0,localhost:1,1,OPEN,0,0,reads",    // name
		"replica=t,abc,00,-,-,0,0,localhost:1,1,OPEN,zero,0,reads", // state server
	} {
		if _, err := parseReplicas([]string{bad}); err == nil {
			t.Errorf("%q parsed without error", bad)
		}
	}
}
