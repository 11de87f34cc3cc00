package region

import "encoding/binary"

// sealRecord is one caller's tokens in pending: where they end (a stream offset) and whether
// the caller has sealed them.
type sealRecord struct {
	end    int64
	sealed bool
}

// sealSlot is one token of a caller's frame, reserved in pending and waiting for its MAC.
type sealSlot struct {
	at     int64 // stream offset of the token's MAC field
	seq    uint32
	plain  []byte // the chunk of the caller's frame the token carries
	macOff int    // where its MAC is in the caller's scratch buffer
}

// enqueueSplit is enqueue for a SplitLayer. Under the lock the caller only reserves its tokens
// in stream order (sequence number, keystream and the AES-CTR of its bytes, which AES-NI makes
// cheap); the MAC, most of the layer's cost, is computed after unlocking, in parallel with
// other callers and with the write in progress. Then it seals its tokens in place and, if no
// one is writing and the front of pending is sealed, writes.
func (w *writer) enqueueSplit(c *Client, cl *call) {
	var slotArr [4]sealSlot
	slots := slotArr[:0]
	w.mu.Lock()
	if c.dead.Load() {
		w.mu.Unlock()
		return
	}
	for p := cl.enc; len(p) > 0; {
		chunk := p[:min(len(p), w.maxWrap)]
		p = p[len(chunk):]
		start := len(w.pending)
		w.pending = append(w.pending, 0, 0, 0, 0)
		var seq uint32
		w.pending, seq = w.split.WrapOrdered(w.pending, chunk)
		binary.BigEndian.PutUint32(w.pending[start:], uint32(len(w.pending)-start-4))
		slots = append(slots, sealSlot{at: w.base + int64(start+4+len(chunk)), seq: seq, plain: chunk})
	}
	gen := w.gen
	id := w.taken + int64(len(w.seals))
	w.seals = append(w.seals, sealRecord{end: w.base + int64(len(w.pending))})
	w.mu.Unlock()

	macs := cl.mac[:0]
	for i := range slots {
		slots[i].macOff = len(macs)
		macs = w.split.Seal(macs, slots[i].seq, slots[i].plain)
	}
	cl.mac = macs

	w.mu.Lock()
	if w.gen != gen {
		// The connection failed and pending was discarded with our tokens.
		w.mu.Unlock()
		return
	}
	for i, s := range slots {
		end := len(macs)
		if i+1 < len(slots) {
			end = slots[i+1].macOff
		}
		mac := macs[s.macOff:end]
		field := w.pending[s.at-w.base:][:len(mac)]
		for j, b := range mac {
			field[j] ^= b
		}
	}
	w.seals[id-w.taken].sealed = true
	if w.writing || !w.seals[0].sealed {
		// The writer, or the caller sealing the front token, will write ours.
		w.mu.Unlock()
		return
	}
	w.writing = true
	w.mu.Unlock()
	w.drain(c, true, false)
}

// takeSealed returns the sealed front of pending[off:] for the writer and drops its records.
// The bytes stay in pending: callers append after them and seal tokens further on, but nobody
// touches them until the writer comes back, so first it reclaims what it wrote last time.
// w.mu must be held by the writer.
func (w *writer) takeSealed() []byte {
	switch {
	case w.off == len(w.pending):
		w.base += int64(w.off)
		w.pending, w.off = w.pending[:0], 0
	case w.off > len(w.pending)/2:
		// Tokens still being sealed remain; compact only when that moves less than was
		// written, so that each byte is moved O(1) times.
		w.base += int64(w.off)
		w.pending, w.off = w.pending[:copy(w.pending, w.pending[w.off:])], 0
	}
	if cap(w.pending) > maxPooledBuffer && len(w.pending) == 0 {
		w.pending = nil
	}
	k := 0
	for k < len(w.seals) && w.seals[k].sealed {
		k++
	}
	if k == 0 {
		return nil
	}
	end := int(w.seals[k-1].end - w.base)
	w.seals = w.seals[:copy(w.seals, w.seals[k:])]
	w.taken += int64(k)
	out := w.pending[w.off:end]
	w.off = end
	return out
}
