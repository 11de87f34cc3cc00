package visibility

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/coprocessor"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
	"google.golang.org/protobuf/proto"
)

// LabelsTable is the table whose region serves the labels service (the VisibilityController's
// hbase:labels).
const LabelsTable = "hbase:labels"

// The methods of HBase's VisibilityLabelsService.
var (
	methods    = pb.File_VisibilityLabels_proto.Services().ByName("VisibilityLabelsService").Methods()
	addLabels  = coprocessor.MethodOf(methods.ByName("addLabels"))
	setAuths   = coprocessor.MethodOf(methods.ByName("setAuths"))
	clearAuths = coprocessor.MethodOf(methods.ByName("clearAuths"))
	getAuths   = coprocessor.MethodOf(methods.ByName("getAuths"))
	listLabels = coprocessor.MethodOf(methods.ByName("listLabels"))
)

// AddLabels defines visibility labels (Java's VisibilityClient.addLabels). A label is letters,
// digits, '_', '-', ':', '/' and '.': any other is refused with hberr.ErrInvalidLabel before
// anything is sent (HBase would store it, and no expression could name it). A label that
// exists already is refused with hberr.ErrLabelExists; the others of the call are defined. Each
// label refused is an *hberr.LabelError; several are joined (errors.Join).
func AddLabels(ctx context.Context, c *hbase.Client, labels ...string) error {
	const op = "AddLabels"
	if err := checkLabels(op, labels); err != nil {
		return err
	}
	for i, l := range labels {
		if slices.Contains(labels[:i], l) {
			// HBase would define it twice, under two ordinals.
			return &hberr.LabelError{Op: op, Label: l, Err: fmt.Errorf("visibility: %w: given twice; nothing was sent", hberr.ErrBadRequest)}
		}
	}
	req := &pb.VisibilityLabelsRequest{}
	for _, l := range labels {
		req.VisLabel = append(req.VisLabel, &pb.VisibilityLabel{Label: []byte(l)})
	}
	var resp pb.VisibilityLabelsResponse
	if err := call(ctx, c, addLabels, req, &resp, false); err != nil {
		return err
	}
	return results(op, labels, resp.GetResult())
}

// SetAuths gives user (a user name, or "@group") the authorizations of labels (Java's
// VisibilityClient.setAuths): the labels its reads may see. Every label must be defined: the
// call checks them first (ListLabels) and refuses one that is not with hberr.ErrLabelNotFound,
// setting none.
func SetAuths(ctx context.Context, c *hbase.Client, user string, labels ...string) error {
	const op = "SetAuths"
	if err := checkAuths(op, user, labels); err != nil {
		return err
	}
	defined, err := ListLabels(ctx, c, "")
	if err != nil {
		return err
	}
	var missing []error
	for _, l := range labels {
		if !slices.Contains(defined, l) {
			missing = append(missing, &hberr.LabelError{Op: op, Label: l,
				Err: fmt.Errorf("%w: no such label is defined (AddLabels); nothing was set", hberr.ErrLabelNotFound)})
		}
	}
	if len(missing) > 0 {
		return errors.Join(missing...)
	}
	var resp pb.VisibilityLabelsResponse
	if err := call(ctx, c, setAuths, authsRequest(user, labels), &resp, false); err != nil {
		return err
	}
	return results(op, labels, resp.GetResult())
}

// ClearAuths takes the authorizations of labels from user (Java's VisibilityClient.clearAuths).
// The user must have each of them: the call checks first (Auths) and refuses one the user does
// not have with hberr.ErrLabelNotFound, clearing none.
func ClearAuths(ctx context.Context, c *hbase.Client, user string, labels ...string) error {
	const op = "ClearAuths"
	if err := checkAuths(op, user, labels); err != nil {
		return err
	}
	has, err := Auths(ctx, c, user)
	if err != nil {
		return err
	}
	var missing []error
	for _, l := range labels {
		if !slices.Contains(has, l) {
			missing = append(missing, &hberr.LabelError{Op: op, Label: l,
				Err: fmt.Errorf("%w: %s does not have it; nothing was cleared", hberr.ErrLabelNotFound, user)})
		}
	}
	if len(missing) > 0 {
		return errors.Join(missing...)
	}
	var resp pb.VisibilityLabelsResponse
	if err := call(ctx, c, clearAuths, authsRequest(user, labels), &resp, false); err != nil {
		return err
	}
	return results(op, labels, resp.GetResult())
}

// Auths returns the labels user (a user name, or "@group") is authorized for (Java's
// VisibilityClient.getAuths).
func Auths(ctx context.Context, c *hbase.Client, user string) ([]string, error) {
	if user == "" {
		return nil, &hberr.OpError{Op: getAuths.String(), Table: LabelsTable, Err: fmt.Errorf("visibility: %w: empty user", hberr.ErrBadRequest)}
	}
	var resp pb.GetAuthsResponse
	if err := call(ctx, c, getAuths, &pb.GetAuthsRequest{User: []byte(user)}, &resp, true); err != nil {
		return nil, err
	}
	return strs(resp.GetAuth()), nil
}

// ListLabels returns the defined labels (Java's VisibilityClient.listLabels), those matching
// regex when it is not empty: a Java regular expression, which the server matches against
// each whole label (Matcher.matches).
func ListLabels(ctx context.Context, c *hbase.Client, regex string) ([]string, error) {
	req := &pb.ListLabelsRequest{}
	if regex != "" {
		req.Regex = proto.String(regex)
	}
	var resp pb.ListLabelsResponse
	if err := call(ctx, c, listLabels, req, &resp, true); err != nil {
		return nil, err
	}
	return strs(resp.GetLabel()), nil
}

// call calls m on the labels region. A cluster without the VisibilityController has no
// hbase:labels: that is hberr.ErrNotSupported, as a service that is not loaded.
func call(ctx context.Context, c *hbase.Client, m coprocessor.Method, req, resp proto.Message, idempotent bool) error {
	var opts []coprocessor.Option
	if idempotent {
		opts = append(opts, coprocessor.Idempotent())
	}
	err := coprocessor.Call(ctx, c, LabelsTable, nil, m, req, resp, opts...)
	if errors.Is(err, hberr.ErrTableNotFound) {
		return fmt.Errorf("visibility labels are not enabled on the cluster (no table %s: the VisibilityController is not loaded): %w: %w",
			LabelsTable, hberr.ErrNotSupported, err)
	}
	return err
}

// results turns a VisibilityLabelsResponse's results, one per label in order, into the call's
// error: nil when every label succeeded.
func results(op string, labels []string, rs []*pb.RegionActionResult) error {
	if len(rs) != len(labels) {
		return &hberr.OpError{Op: op, Table: LabelsTable,
			Err: fmt.Errorf("%w: %w", hberr.ErrCorruptResponse, wire.BadResponse("%d results for %d labels", len(rs), len(labels)))}
	}
	var errs []error
	for i, r := range rs {
		ex := r.GetException()
		if ex == nil {
			continue
		}
		remote := wire.ActionException(ex)
		var err error = remote
		switch trace := remote.StackTrace; {
		case strings.Contains(trace, "LabelAlreadyExistsException"):
			err = fmt.Errorf("%w: %w", hberr.ErrLabelExists, remote)
		case strings.Contains(trace, "InvalidLabelException"):
			err = fmt.Errorf("%w: %w", hberr.ErrLabelNotFound, remote)
		}
		errs = append(errs, &hberr.LabelError{Op: op, Label: labels[i], Err: err})
	}
	return errors.Join(errs...)
}

func authsRequest(user string, labels []string) *pb.SetAuthsRequest {
	req := &pb.SetAuthsRequest{User: []byte(user)}
	for _, l := range labels {
		req.Auth = append(req.Auth, []byte(l))
	}
	return req
}

func strs(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}
