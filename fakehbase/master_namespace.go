package fakehbase

import (
	"maps"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/go-hbase/hbase/internal/pb"
)

// The master's namespace calls. Creating, deleting and modifying are procedures, as in HBase.

func createNamespace(s *Server, req *pb.CreateNamespaceRequest) (func() error, error) {
	d := req.GetNamespaceDescriptor()
	name := string(d.GetName())
	if err := checkNamespaceName(name); err != nil {
		return nil, err
	}
	return func() error {
		if s.namespaces[name] != nil {
			return jerr(NamespaceExist, "%s", name)
		}
		s.namespaces[name] = &namespace{name: name, props: propsOf(d)}
		return nil
	}, nil
}

func propsOf(d *pb.NamespaceDescriptor) map[string]string {
	props := map[string]string{}
	for _, p := range d.GetConfiguration() {
		props[p.GetName()] = p.GetValue()
	}
	return props
}

// checkNamespaceName refuses what TableName.isLegalNamespaceName refuses.
func checkNamespaceName(name string) error {
	if name == "" {
		return jerr(IllegalArgument, "Namespace name must not be empty")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return jerr(IllegalArgument, "Illegal character <%c> at %d. Namespaces may only contain 'alphanumeric characters' from any language and digits: %s", c, i, name)
		}
	}
	return nil
}

func deleteNamespace(s *Server, req *pb.DeleteNamespaceRequest) (func() error, error) {
	name := req.GetNamespaceName()
	return func() error {
		if name == defaultNS || name == systemNS {
			return jerr(Constraint, "Reserved namespace name")
		}
		if s.namespaces[name] == nil {
			return jerr(NamespaceNotFound, "%s", name)
		}
		n := 0
		for _, t := range s.tables {
			if t.ns == name {
				n++
			}
		}
		if n > 0 {
			return jerr(Constraint, "Only empty namespaces can be removed. Namespace %s has %d tables", name, n)
		}
		delete(s.namespaces, name)
		return nil
	}, nil
}

func modifyNamespace(s *Server, req *pb.ModifyNamespaceRequest) (func() error, error) {
	d := req.GetNamespaceDescriptor()
	return func() error {
		ns := s.namespaces[string(d.GetName())]
		if ns == nil {
			return jerr(NamespaceNotFound, "%s", d.GetName())
		}
		ns.props = propsOf(d)
		return nil
	}, nil
}

func (ns *namespace) descriptor() *pb.NamespaceDescriptor {
	d := &pb.NamespaceDescriptor{Name: []byte(ns.name)}
	for _, k := range slices.Sorted(maps.Keys(ns.props)) {
		d.Configuration = append(d.Configuration, &pb.NameStringPair{Name: proto.String(k), Value: proto.String(ns.props[k])})
	}
	return d
}

func masterNamespace(c *call) (proto.Message, error) {
	return masterCall(c, &pb.GetNamespaceDescriptorRequest{}, "GetNamespaceDescriptor", nil,
		func(s *Server, req *pb.GetNamespaceDescriptorRequest) (proto.Message, error) {
			ns := s.namespaces[req.GetNamespaceName()]
			if ns == nil {
				return nil, jerr(NamespaceNotFound, "%s", req.GetNamespaceName())
			}
			return &pb.GetNamespaceDescriptorResponse{NamespaceDescriptor: ns.descriptor()}, nil
		})
}

func masterNamespaces(c *call) (proto.Message, error) {
	return masterCall(c, &pb.ListNamespaceDescriptorsRequest{}, "ListNamespaceDescriptors", nil,
		func(s *Server, req *pb.ListNamespaceDescriptorsRequest) (proto.Message, error) {
			resp := &pb.ListNamespaceDescriptorsResponse{}
			for _, name := range slices.Sorted(maps.Keys(s.namespaces)) {
				resp.NamespaceDescriptor = append(resp.NamespaceDescriptor, s.namespaces[name].descriptor())
			}
			return resp, nil
		})
}
