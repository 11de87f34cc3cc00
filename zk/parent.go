package zk

import (
	"context"
	"errors"
	"fmt"

	gozk "github.com/go-zookeeper/zk"
)

// ErrNoParent is returned (with ErrNoNode) when a znode is missing because the parent znode
// HBase keeps its state under does not exist: the parent is wrong (WithZNodeParent, or a
// chroot in the quorum string, against HBase's zookeeper.znode.parent) or the quorum is not
// HBase's. Unlike a missing znode under an existing parent (hbase:meta not assigned yet, no
// active master), retrying does not help.
var ErrNoParent = errors.New("zk: parent znode does not exist")

// NoParentError says which znode was looked up and which parent is missing. It matches
// both ErrNoParent and ErrNoNode with errors.Is.
type NoParentError struct {
	Path   string // the znode looked up, e.g. /hbase-wrong/meta-region-server
	Parent string // its missing parent, e.g. /hbase-wrong
}

func (e *NoParentError) Error() string {
	return fmt.Sprintf("zk: znode %s does not exist, nor does its parent %s: is the parent znode right? "+
		"It must be HBase's zookeeper.znode.parent (default /hbase; set with WithZNodeParent)", e.Path, e.Parent)
}

func (e *NoParentError) Unwrap() []error { return []error{ErrNoParent, ErrNoNode} }

// noNode builds the error for path missing: a *NoParentError when the parent is missing
// too, so that callers can fail at once instead of waiting for the znode to appear. When the
// parent's existence cannot be told (the session is changing), the plain ErrNoNode is
// returned and the caller retries.
func (c *Client) noNode(ctx context.Context, path string) error {
	missing := fmt.Errorf("zk: get %s: %w", path, ErrNoNode)
	found, err := c.existsOnce(ctx, c.parent)
	if err != nil {
		c.logger.DebugContext(ctx, "zk: checking the parent znode failed", "parent", c.parent, "err", err)
		return missing
	}
	if found {
		return missing
	}
	return &NoParentError{Path: path, Parent: c.parent}
}

// existsOnce sends one Exists, as getOnce sends one Get.
func (c *Client) existsOnce(ctx context.Context, path string) (bool, error) {
	var found bool
	err := c.call(ctx, func(conn *gozk.Conn) error {
		var err error
		found, _, err = conn.Exists(path)
		return err
	})
	if err != nil {
		return false, err // found may still be written by a call that outlived ctx
	}
	return found, nil
}
