package zk

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestMissingParentIsReported: on a real ZooKeeper, a parent znode that does not exist is
// told apart from a parent that exists without HBase's znode in it (as right after a
// cluster starts, before meta-region-server is written): only the first is ErrNoParent.
func TestMissingParentIsReported(t *testing.T) {
	hc := realCluster(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()

	wrong := mustNew(t, hc.ZKQuorum, WithZNodeParent("/hbase-wrong"))
	defer wrong.Close()
	_, err := wrong.LocateMeta(ctx)
	if ctx.Err() != nil {
		t.Errorf("LocateMeta under a missing parent was retried until its context ended")
	}
	var npe *NoParentError
	if !errors.As(err, &npe) || !errors.Is(err, ErrNoParent) || !errors.Is(err, ErrNoNode) {
		t.Fatalf("LocateMeta under a missing parent: %v; want a *NoParentError (ErrNoParent, ErrNoNode)", err)
	}
	if npe.Path != "/hbase-wrong/meta-region-server" || npe.Parent != "/hbase-wrong" ||
		!strings.Contains(err.Error(), "/hbase-wrong/meta-region-server") || !strings.Contains(err.Error(), "zookeeper.znode.parent") {
		t.Errorf("error %q (%+v) does not name the znode, the parent and the setting", err, npe)
	}
	t.Logf("missing parent: %v", err)
	if _, err := wrong.LocateMaster(ctx); !errors.Is(err, ErrNoParent) {
		t.Errorf("LocateMaster under a missing parent: %v; want ErrNoParent", err)
	}

	// A chroot that does not exist is a missing parent too, named in full.
	chrooted := mustNew(t, hc.ZKQuorum+"/no-such-chroot", WithZNodeParent(hc.ZNodeParent))
	defer chrooted.Close()
	if _, err := chrooted.LocateMeta(ctx); !errors.As(err, &npe) || npe.Parent != "/no-such-chroot"+hc.ZNodeParent {
		t.Errorf("LocateMeta under a missing chroot: %v; want the parent %s named", err, "/no-such-chroot"+hc.ZNodeParent)
	}

	// ZooKeeper's own /zookeeper exists but holds no meta-region-server: plain ErrNoNode,
	// which callers retry.
	empty := mustNew(t, hc.ZKQuorum, WithZNodeParent("/zookeeper"))
	defer empty.Close()
	if _, err := empty.LocateMeta(ctx); !errors.Is(err, ErrNoNode) || errors.Is(err, ErrNoParent) {
		t.Errorf("LocateMeta under an existing parent without meta: %v; want ErrNoNode alone", err)
	}

	// The right parent still works.
	right := mustNew(t, hc.ZKQuorum, WithZNodeParent(hc.ZNodeParent))
	defer right.Close()
	if _, err := right.LocateMeta(ctx); err != nil {
		t.Errorf("LocateMeta under the cluster's parent: %v", err)
	}
}
