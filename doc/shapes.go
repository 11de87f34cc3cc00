package doc

import (
	"sync"

	"github.com/go-hbase/hbase/hrpc"
)

// maxShapes bounds the paths a collection remembers as containers.
const maxShapes = 1024

// shapes remembers the paths a read found to be containers (objects, or arrays with elements)
// in some document, so that the next read of such a subtree asks for it with a prefix filter at
// once instead of first as a column (fetch). It is a hint only: a wrong guess costs a round
// trip or a filtered read, never a wrong answer.
type shapes struct {
	mu         sync.Mutex
	containers map[string]struct{}
}

// anyContainer reports whether one of roots was last seen as a container.
func (s *shapes) anyContainer(roots []string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range roots {
		if _, ok := s.containers[r]; ok {
			return true
		}
	}
	return false
}

// learn records what cs (a read of the subtrees or the columns of roots) says each root is.
func (s *shapes) learn(cs []hrpc.Cell, roots []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range roots {
		if containerIn(cs, r) {
			if s.containers == nil {
				s.containers = make(map[string]struct{})
			}
			if len(s.containers) < maxShapes {
				s.containers[r] = struct{}{}
			}
		} else {
			delete(s.containers, r)
		}
	}
}

// containerIn reports whether root is, in cs, an object or an array with elements: a root
// whose subtree holds more cells than itself.
func containerIn(cs []hrpc.Cell, root string) bool {
	for i := range cs {
		if string(cs[i].Qualifier) != root {
			continue
		}
		v := cs[i].Value
		return len(v) > 0 && (v[0] == tagObject || v[0] == tagArray && (len(v) < 2 || v[1] != 0))
	}
	return false
}
