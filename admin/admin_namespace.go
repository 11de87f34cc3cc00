package admin

import (
	"context"
	"errors"

	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
	"github.com/go-hbase/hbase/internal/hrpcwire"
	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
)

// CreateNamespace creates ns (hberr.ErrNamespaceExists when there is one of that name).
func (a *Admin) CreateNamespace(ctx context.Context, ns *hrpc.NamespaceDescriptor) error {
	var name string
	if ns != nil {
		name = ns.Name
	}
	ctx, call := a.begin(ctx, "CreateNamespace", name, "")
	req, err := hrpcwire.CreateNamespaceRequest(ns, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodCreateNamespace, req, &pb.CreateNamespaceResponse{}, a.namespaceExists(name, true))
	}
	return call.end(ctx, err)
}

// ModifyNamespace replaces the properties of namespace ns.Name with those of ns.
func (a *Admin) ModifyNamespace(ctx context.Context, ns *hrpc.NamespaceDescriptor) error {
	var name string
	if ns != nil {
		name = ns.Name
	}
	ctx, call := a.begin(ctx, "ModifyNamespace", name, "")
	req, err := hrpcwire.ModifyNamespaceRequest(ns, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodModifyNamespace, req, &pb.ModifyNamespaceResponse{}, nil)
	}
	return call.end(ctx, err)
}

// DeleteNamespace deletes an empty namespace (hberr.ErrNamespaceNotEmpty when it holds tables).
func (a *Admin) DeleteNamespace(ctx context.Context, name string) error {
	ctx, call := a.begin(ctx, "DeleteNamespace", name, "")
	req, err := wire.DeleteNamespaceRequest(name, a.nonce())
	if err == nil {
		err = a.procedure(ctx, wire.MethodDeleteNamespace, req, &pb.DeleteNamespaceResponse{}, a.namespaceExists(name, false))
	}
	return call.end(ctx, err)
}

// DescribeNamespace returns the descriptor of namespace name (hberr.ErrNamespaceNotFound when
// there is none).
func (a *Admin) DescribeNamespace(ctx context.Context, name string) (*hrpc.NamespaceDescriptor, error) {
	ctx, call := a.begin(ctx, "DescribeNamespace", name, "")
	ns, err := a.describeNamespace(ctx, name)
	return ns, call.end(ctx, err)
}

func (a *Admin) describeNamespace(ctx context.Context, name string) (*hrpc.NamespaceDescriptor, error) {
	req, err := wire.DescribeNamespaceRequest(name)
	if err != nil {
		return nil, err
	}
	resp := &pb.GetNamespaceDescriptorResponse{}
	if err := a.callMaster(ctx, wire.MethodGetNamespaceDescriptor, req, resp); err != nil {
		return nil, err
	}
	return hrpcwire.Namespace(resp.GetNamespaceDescriptor()), nil
}

// ListNamespaces returns every namespace, "default" and "hbase" included.
func (a *Admin) ListNamespaces(ctx context.Context) ([]*hrpc.NamespaceDescriptor, error) {
	ctx, call := a.begin(ctx, "ListNamespaces", "", "")
	resp := &pb.ListNamespaceDescriptorsResponse{}
	if err := a.callMaster(ctx, wire.MethodListNamespaceDescs, wire.ListNamespacesRequest(), resp); err != nil {
		return nil, call.end(ctx, err)
	}
	out := make([]*hrpc.NamespaceDescriptor, 0, len(resp.GetNamespaceDescriptor()))
	for _, p := range resp.GetNamespaceDescriptor() {
		out = append(out, hrpcwire.Namespace(p))
	}
	return out, call.end(ctx, nil)
}

// namespaceExists is the check of a finished-and-forgotten namespace procedure.
func (a *Admin) namespaceExists(name string, want bool) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		_, err := a.describeNamespace(ctx, name)
		if errors.Is(err, hberr.ErrNamespaceNotFound) {
			return !want, nil
		}
		if err != nil {
			return false, err
		}
		return want, nil
	}
}
