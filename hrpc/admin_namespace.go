package hrpc

import (
	"maps"

	"github.com/go-hbase/hbase/internal/pb"
	"github.com/go-hbase/hbase/internal/wire"
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
	if err := wire.CheckNamespaceName(name); err != nil {
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
	if err := wire.CheckNamespaceName(ns.Name); err != nil {
		return nil, err
	}
	return &pb.NamespaceDescriptor{Name: []byte(ns.Name), Configuration: stringPairs(ns.Properties)}, nil
}

// namespaceFromProto reads a NamespaceDescriptor the master returned.
func namespaceFromProto(p *pb.NamespaceDescriptor) *NamespaceDescriptor {
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
