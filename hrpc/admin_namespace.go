package hrpc

import (
	"maps"

	"github.com/go-hbase/hbase/internal/pb"
)

// NamespaceDescriptor describes a namespace: its name and its properties
// ("hbase.namespace.quota.maxtables", "hbase.namespace.quota.maxregions"...).
type NamespaceDescriptor struct {
	Name       string
	Properties map[string]string
}

// NamespaceOption configures a namespace built by NewNamespace.
type NamespaceOption func(*NamespaceDescriptor) error

// NewNamespace returns the descriptor of a namespace after checking its name and options.
func NewNamespace(name string, opts ...NamespaceOption) (*NamespaceDescriptor, error) {
	ns := &NamespaceDescriptor{Name: name}
	for _, o := range opts {
		if o == nil {
			return nil, invalid("nil NamespaceOption")
		}
		if err := o(ns); err != nil {
			return nil, err
		}
	}
	if err := CheckNamespaceName(name); err != nil {
		return nil, err
	}
	return ns, nil
}

// NamespaceProperty sets a property of the namespace.
func NamespaceProperty(key, value string) NamespaceOption {
	return func(ns *NamespaceDescriptor) error {
		if key == "" {
			return invalid("empty namespace property name")
		}
		if ns.Properties == nil {
			ns.Properties = make(map[string]string)
		}
		ns.Properties[key] = value
		return nil
	}
}

func (ns *NamespaceDescriptor) proto() (*pb.NamespaceDescriptor, error) {
	if ns == nil {
		return nil, invalid("nil NamespaceDescriptor")
	}
	if err := CheckNamespaceName(ns.Name); err != nil {
		return nil, err
	}
	return &pb.NamespaceDescriptor{Name: []byte(ns.Name), Configuration: stringPairs(ns.Properties)}, nil
}

// NamespaceFromProto reads a NamespaceDescriptor the master returned.
func NamespaceFromProto(p *pb.NamespaceDescriptor) *NamespaceDescriptor {
	ns := &NamespaceDescriptor{Name: string(p.GetName())}
	for _, c := range p.GetConfiguration() {
		if ns.Properties == nil {
			ns.Properties = make(map[string]string)
		}
		ns.Properties[c.GetName()] = c.GetValue()
	}
	return ns
}

// Clone returns a deep copy of ns.
func (ns *NamespaceDescriptor) Clone() *NamespaceDescriptor {
	return &NamespaceDescriptor{Name: ns.Name, Properties: maps.Clone(ns.Properties)}
}

// CreateNamespaceRequest builds the request creating ns.
func CreateNamespaceRequest(ns *NamespaceDescriptor, n Nonce) (*pb.CreateNamespaceRequest, error) {
	p, err := ns.proto()
	if err != nil {
		return nil, err
	}
	return &pb.CreateNamespaceRequest{NamespaceDescriptor: p, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// ModifyNamespaceRequest builds the request replacing the properties of ns.Name.
func ModifyNamespaceRequest(ns *NamespaceDescriptor, n Nonce) (*pb.ModifyNamespaceRequest, error) {
	p, err := ns.proto()
	if err != nil {
		return nil, err
	}
	return &pb.ModifyNamespaceRequest{NamespaceDescriptor: p, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// DeleteNamespaceRequest builds the request deleting an empty namespace.
func DeleteNamespaceRequest(name string, n Nonce) (*pb.DeleteNamespaceRequest, error) {
	if err := CheckNamespaceName(name); err != nil {
		return nil, err
	}
	return &pb.DeleteNamespaceRequest{NamespaceName: &name, NonceGroup: &n.Group, Nonce: &n.Nonce}, nil
}

// DescribeNamespaceRequest builds the request for the descriptor of a namespace.
func DescribeNamespaceRequest(name string) (*pb.GetNamespaceDescriptorRequest, error) {
	if err := CheckNamespaceName(name); err != nil {
		return nil, err
	}
	return &pb.GetNamespaceDescriptorRequest{NamespaceName: &name}, nil
}

// ListNamespacesRequest builds the request for every namespace's descriptor.
func ListNamespacesRequest() *pb.ListNamespaceDescriptorsRequest {
	return &pb.ListNamespaceDescriptorsRequest{}
}
